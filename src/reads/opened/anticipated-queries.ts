// An entry's sealed anticipated queries (a JSON array) opened for reading;
// sealing them is src/commands/subject/seal-entry.ts.
import { anticipatedQueriesSchema } from '../../domain/entry/entry.js';
import type { Sealed } from '../../domain/events/sealed.js';
import { openEntryField, type MemoryPlace } from './entry-field.js';

/** Opened and checked against the entry schema's limits. */
export function openAnticipatedQueries(sealed: Sealed, key: Buffer, place: MemoryPlace): string[] {
  return anticipatedQueriesSchema.parse(openEntryField('anticipatedQueries', sealed, key, place));
}
