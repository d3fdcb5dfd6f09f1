// A memory's personal fields (value, content, anticipated queries) opened in
// memory with its key.
// A key that is gone (forgotten memory or subject, or an erasure under way)
// leaves the fields unreadable: marked, never a failed read.
import type { Sealed } from '../../domain/events/sealed.js';
import type { Value } from '../../domain/values/value.js';
import { openAnticipatedQueries } from '../../reads/opened/anticipated-queries.js';
import { openEntryField } from '../../reads/opened/entry-field.js';
import type { KeyLookup, KeyStore, MemoryKey, SubjectRef } from '../../infrastructure/key-store/port.js';

export type PersonalFields =
  | {
      readonly status: 'readable';
      readonly value: Value;
      readonly content?: string;
      /** Write-time query expansion: what retrieval indexes alongside the content. */
      readonly anticipatedQueries?: readonly string[];
    }
  | { readonly status: 'forgotten' };

export const FORGOTTEN: PersonalFields = { status: 'forgotten' };

export interface SealedFields {
  readonly memoryId: string;
  /** Null once the projection erased it. */
  readonly value: Sealed | null;
  readonly content: Sealed | null | undefined;
  /** Absent where the caller did not select it. */
  readonly anticipatedQueries?: Sealed | null;
}

/** The key store reads at most 10,000 keys per call. */
const KEY_CHUNK = 5000;

export async function memoryKeysOf(
  keys: KeyStore,
  ref: SubjectRef,
  memoryIds: Iterable<string>,
): Promise<Map<string, KeyLookup<MemoryKey>>> {
  const ids = [...new Set(memoryIds)];
  const found = new Map<string, KeyLookup<MemoryKey>>();
  for (let i = 0; i < ids.length; i += KEY_CHUNK) {
    for (const [id, lookup] of await keys.memoryKeys(ref, ids.slice(i, i + KEY_CHUNK))) found.set(id, lookup);
  }
  return found;
}

/** Opens one memory's fields with its looked-up key. A tampered envelope (SealBroken) is an integrity error and throws. */
export function openFields(ref: SubjectRef, fields: SealedFields, lookup: KeyLookup<MemoryKey> | undefined): PersonalFields {
  if (fields.value === null || !lookup || lookup.status !== 'found' || lookup.key.keyId !== fields.value.keyId) return FORGOTTEN;
  const place = { ...ref, memoryId: fields.memoryId };
  const value = openEntryField('value', fields.value, lookup.key.key, place) as Value;
  const sealed = [fields.content, fields.anticipatedQueries].filter((s): s is Sealed => !!s);
  if (sealed.some((s) => s.keyId !== lookup.key.keyId)) return FORGOTTEN;
  const content = fields.content ? openEntryField('content', fields.content, lookup.key.key, place) : undefined;
  const queries = fields.anticipatedQueries ? openAnticipatedQueries(fields.anticipatedQueries, lookup.key.key, place) : undefined;
  return {
    status: 'readable',
    value,
    ...(content !== undefined ? { content } : {}),
    ...(queries !== undefined ? { anticipatedQueries: queries } : {}),
  };
}

/** Opens many memories' fields of one subject with one key lookup. */
export async function openMemoryFields(
  keys: KeyStore,
  ref: SubjectRef,
  rows: readonly SealedFields[],
): Promise<Map<string, PersonalFields>> {
  return (await openMemoryFieldsWithKeys(keys, ref, rows)).fields;
}

/** openMemoryFields, with the keys it looked up (for a caller that seals under them in the same call: never to keep). */
export async function openMemoryFieldsWithKeys(
  keys: KeyStore,
  ref: SubjectRef,
  rows: readonly SealedFields[],
): Promise<{ fields: Map<string, PersonalFields>; lookups: Map<string, KeyLookup<MemoryKey>> }> {
  const readable = rows.filter((r) => r.value !== null);
  const lookups =
    readable.length > 0
      ? await memoryKeysOf(
          keys,
          ref,
          readable.map((r) => r.memoryId),
        )
      : new Map<string, KeyLookup<MemoryKey>>();
  const fields = new Map<string, PersonalFields>();
  for (const row of rows) fields.set(row.memoryId, openFields(ref, row, lookups.get(row.memoryId)));
  return { fields, lookups };
}
