// Every labeled candidate write of the corpus, in one list.
import type { WriteRow } from './write-row.js';
import { GUARD_ROWS } from './writes-guards.corpus.js';
import { SEED_001_ROWS } from './writes-seed001.corpus.js';
import { SEED_003_ROWS } from './writes-seed003.corpus.js';

export const CORPUS_ROWS: readonly WriteRow[] = [...SEED_001_ROWS, ...SEED_003_ROWS, ...GUARD_ROWS];
