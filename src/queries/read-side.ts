// What the query side reads from: the projections' database (through the
// registry's active schema), the event store (replay, verify), the key store
// (personal fields are opened in memory only) and a tokenizer (recall packs
// to a token budget with the same tokenizer consolidation counts with).
import type { Kysely } from 'kysely';
import type { SubjectRepository } from '../commands/subject/subject-repository.js';
import type { CountTokens } from '../domain/consolidation/cold-tier.js';
import type { EventStore } from '../infrastructure/event-store/port.js';
import type { KeyStore } from '../infrastructure/key-store/port.js';
import { loadTokenCounter } from '../infrastructure/summarizer/tokenizer.js';
import { catchUpProjections, openProjectionDatabase } from '../projections/index.js';
import type { CatchUpResult } from '../projections/runtime/catch-up.js';
import type { OpenLedger } from '../runtime/open-ledger.js';

export interface ReadSide {
  /** The projections' PostgreSQL (registry and projection schemas). */
  readonly projections: Kysely<any>;
  readonly eventStore: EventStore;
  readonly keyStore: KeyStore;
  /** Folded subject streams (verify judges staleness from the log, not from the projection). */
  readonly subjects: SubjectRepository;
  readonly clock: () => Date;
  readonly countTokens: CountTokens;
}

export interface OpenReadSide extends ReadSide {
  /** Closes what openReadSide opened (not the ledger). */
  close(): Promise<void>;
}

export interface ReadSideOptions {
  readonly poolSize?: number;
  /** False for queries that count no tokens (loading the tokenizer takes a moment): recall and verify need it. */
  readonly tokenizer?: boolean;
}

export async function openReadSide(ledger: OpenLedger, options: ReadSideOptions = {}): Promise<OpenReadSide> {
  const database = await openProjectionDatabase(ledger.databaseUrl, options.poolSize !== undefined ? { poolSize: options.poolSize } : {});
  try {
    const countTokens = options.tokenizer === false ? noTokenizer : await loadTokenCounter();
    return {
      projections: database.db,
      eventStore: ledger.eventStore,
      keyStore: ledger.keyStore,
      subjects: ledger.subjects,
      clock: ledger.clock,
      countTokens,
      close: () => database.close(),
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

function noTokenizer(): number {
  throw new Error('this read side was opened without a tokenizer');
}

/** Read your own writes: every projection caught up to the head of the log as it is now. */
export function catchUp(read: Pick<ReadSide, 'eventStore' | 'projections'>): Promise<CatchUpResult[]> {
  return catchUpProjections(read.eventStore, read.projections);
}
