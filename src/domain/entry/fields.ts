// The memory entry's fields, described once: which are sealed (personal:
// ciphertext in events, opened in memory only), and which optional ones pass
// from the client's entry to the sealed entry and MemoryRecorded as given.
// The schemas of the sealed entry and of MemoryRecorded derive from
// sealedEntryShape (sealed-entry.ts).

/** Sealed under the memory's own key; each is also a field name bound into its envelope. */
export const SEALED_ENTRY_FIELDS = ['value', 'content', 'anticipatedQueries'] as const;
export type SealedEntryField = (typeof SEALED_ENTRY_FIELDS)[number];

/** How each sealed field's plaintext is written before sealing: as JSON, or the text itself. */
export const SEALED_ENTRY_PLAINTEXT = {
  value: 'json',
  content: 'text',
  anticipatedQueries: 'json',
} as const satisfies Record<SealedEntryField, 'json' | 'text'>;

/** Optional, kept in clear, copied as given when present (absent stays absent). */
export const OPTIONAL_CLEAR_FIELDS = ['confidence', 'validFrom', 'validTo', 'expiresAt', 'consentRef', 'purposes'] as const;
export type OptionalClearField = (typeof OPTIONAL_CLEAR_FIELDS)[number];

/** The optional clear fields MemoryRecorded may lack (it always holds validFrom): read models keep them as null when absent. */
export const RECORDED_OPTIONAL_FIELDS = OPTIONAL_CLEAR_FIELDS.filter(
  (field): field is Exclude<OptionalClearField, 'validFrom'> => field !== 'validFrom',
);

/** The fields of `fields` as `from` holds them, null where it does not (undefined). */
export function nullWhereAbsent<T extends object, K extends keyof T>(
  from: T,
  fields: readonly K[],
): { [F in K]-?: Exclude<T[F], undefined> | null } {
  const out = {} as { [F in K]-?: Exclude<T[F], undefined> | null };
  for (const field of fields) out[field] = (from[field] ?? null) as Exclude<T[K], undefined> | null;
  return out;
}

/** The fields of `fields` that `from` holds (not undefined), and nothing else. */
export function presentFields<T extends object, K extends keyof T>(from: T, fields: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const field of fields) if (from[field] !== undefined) out[field] = from[field];
  return out;
}
