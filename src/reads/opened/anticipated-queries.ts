// An entry's sealed anticipated queries (a JSON array) opened for reading;
// sealing them is src/commands/subject/seal-entry.ts.
import { anticipatedQueriesSchema } from '../../domain/entry/entry.js';
import type { Sealed } from '../../domain/events/sealed.js';
import { open, type SealContext } from '../../infrastructure/cipher/seal.js';

export const ANTICIPATED_QUERIES_FIELD = 'anticipatedQueries';

/** Opened and checked against the entry schema's limits. */
export function openAnticipatedQueries(sealed: Sealed, key: Buffer, place: SealContext): string[] {
  return anticipatedQueriesSchema.parse(JSON.parse(open(sealed, key, { ...place, field: ANTICIPATED_QUERIES_FIELD })));
}
