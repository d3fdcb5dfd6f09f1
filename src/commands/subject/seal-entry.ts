// Seals an entry's personal fields under the memory's own key before they
// enter an event, with keyed hashes (per-subject HMAC key) of the canonical
// plaintext for dedup and fences. Plaintext never leaves this process.
import { canonicalValueJson } from '../../domain/canonical/canonical-value.js';
import { toSealedEntry, type SealedEntry } from '../../domain/entry/sealed-entry.js';
import { keyedHash } from '../../infrastructure/cipher/keyed-hash.js';
import type { MemoryEntry } from '../../domain/entry/entry.js';
import type { KeyStore, SubjectRef } from '../../infrastructure/key-store/port.js';
import { sealEntryField } from '../../reads/opened/entry-field.js';

export type EntrySealing = { readonly status: 'sealed'; readonly entry: SealedEntry } | { readonly status: 'subject_forgotten' };

export async function sealEntry(keys: KeyStore, ref: SubjectRef, memoryId: string, entry: MemoryEntry): Promise<EntrySealing> {
  const sealing = await keys.sealingKeys(ref, memoryId);
  if (sealing.status !== 'found') return { status: 'subject_forgotten' };
  const { key, keyId } = sealing.memory;
  const hashKey = sealing.subject.hashKey;
  const place = { ...ref, memoryId };
  const fields = {
    value: sealEntryField('value', entry.value, key, keyId, place),
    valueHash: keyedHash(hashKey, canonicalValueJson(entry.value)),
    ...(entry.content !== undefined
      ? {
          content: sealEntryField('content', entry.content, key, keyId, place),
          contentHash: keyedHash(hashKey, entry.content),
        }
      : {}),
    ...(entry.anticipatedQueries !== undefined
      ? { anticipatedQueries: sealEntryField('anticipatedQueries', entry.anticipatedQueries, key, keyId, place) }
      : {}),
  };
  return { status: 'sealed', entry: toSealedEntry(entry, fields) };
}
