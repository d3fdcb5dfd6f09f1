// `--purpose <label>` on record and supersede (repeatable): the entry's
// purposes (src/domain/entry/purposes.ts), added to any the entry JSON lists.
// The entry's schema judges the labels and names `purposes.N`.
import { z } from 'zod';

const collect = (value: string, previous: string[]) => [...previous, value];

export const PURPOSE_OPTION = [
  '--purpose <label>',
  'what the entry may be used for (repeatable); recall with another --purpose leaves it out. None: any purpose',
  collect,
  [] as string[],
] as const;

export const purposeFlags = z.array(z.string());

/** The entry with the flags' purposes appended; an entry that is no object is left for its schema to refuse. */
export function withPurposes(entry: unknown, purposes: readonly string[]): unknown {
  if (purposes.length === 0 || typeof entry !== 'object' || entry === null || Array.isArray(entry)) return entry;
  const given = (entry as { purposes?: unknown }).purposes;
  if (given !== undefined && !Array.isArray(given)) return entry;
  return { ...entry, purposes: [...((given as unknown[] | undefined) ?? []), ...purposes] };
}
