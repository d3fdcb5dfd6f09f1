// The case set shipped in the repository (eval/cases.jsonl): the same path
// from src/evaluation and from the build's dist/evaluation.
import { fileURLToPath } from 'node:url';

export const SHIPPED_CASES = fileURLToPath(new URL('../../eval/cases.jsonl', import.meta.url));
