// Purposes (issue 17 item 7, seed 004 8.3 purpose limitation): what an entry
// may be used for, as labels the tenant chooses (`support`, `billing`,
// `marketing.email`). A reader names its purpose at recall; an entry that
// lists purposes is served only for one of them, an entry without purposes
// for any. Labels say what a memory is for, never what it says: they are
// kept in clear, like kind and key.
import { z } from 'zod';
import { fieldMessage } from '../validation/invalid-input.js';

export const MAX_PURPOSES = 16;

export const purposeSchema = z.string({ error: fieldMessage('must be a string') }).regex(/^[a-z0-9][a-z0-9._:-]{0,63}$/, {
  error: 'must be a purpose label: 1-64 of a-z, 0-9, ".", "_", ":", "-", starting with a letter or digit',
});

/** Sorted, without repeats: the same purposes are the same list. */
export const purposesSchema = z
  .array(purposeSchema, { error: fieldMessage('must be an array of purpose labels') })
  .min(1, { error: 'must list at least one purpose (leave it out for any purpose)' })
  .max(MAX_PURPOSES, { error: `must list at most ${MAX_PURPOSES} purposes` })
  .transform((purposes): readonly string[] => [...new Set(purposes)].sort());

/** Whether an entry with these purposes may be served for `purpose` (absent purposes: any). */
export function servesPurpose(purposes: readonly string[] | null | undefined, purpose: string): boolean {
  return purposes === null || purposes === undefined || purposes.includes(purpose);
}
