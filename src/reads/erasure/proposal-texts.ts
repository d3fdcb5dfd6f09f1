// The texts of candidates (MemoryProposed: the entry sealed under the key of
// the memory it would become), opened in memory for an erasure's needles
// while their keys still exist. Kept beside openEntries (src/reads/opened),
// which reads MemoryRecorded only: a proposal is never an entry.
import { canonicalValueJson } from '../../domain/canonical/canonical-value.js';
import { renderValue } from '../../domain/consolidation/rendering.js';
import { decodeStoredEvent } from '../../domain/events/decode.js';
import type { SealedEntry } from '../../domain/entry/sealed-entry.js';
import { valueSchema, type Value } from '../../domain/values/value.js';
import { open } from '../../infrastructure/cipher/seal.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import type { KeyLookup, KeyStore, MemoryKey, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openAnticipatedQueries } from '../opened/anticipated-queries.js';

const PAGE = 4096;

export interface ProposalTexts {
  /** The texts it says (rendered value, content, canonical value, anticipated queries); empty when its key is gone. */
  readonly texts: readonly string[];
  /** Its keyed hashes (valueHash, contentHash). */
  readonly keyedHashes: readonly string[];
}

export async function openProposals(
  store: EventStore,
  keys: KeyStore,
  ref: SubjectRef,
  stream: string,
  memoryIds: ReadonlySet<string>,
): Promise<Map<string, ProposalTexts>> {
  const sealed = new Map<string, SealedEntry>();
  for (let from = 0; memoryIds.size > 0; from += PAGE) {
    const page = await store.readStream(stream, { fromRevision: from, maxCount: PAGE });
    for (const stored of page) {
      if (stored.type !== 'MemoryProposed') continue;
      const event = decodeStoredEvent(stored);
      if (event.type === 'MemoryProposed' && memoryIds.has(event.data.memoryId)) sealed.set(event.data.memoryId, event.data.entry);
    }
    if (page.length < PAGE) break;
  }
  const found: ReadonlyMap<string, KeyLookup<MemoryKey>> = sealed.size === 0 ? new Map() : await keys.memoryKeys(ref, [...sealed.keys()]);
  const out = new Map<string, ProposalTexts>();
  for (const [memoryId, entry] of sealed) {
    const keyedHashes = [entry.valueHash, ...(entry.contentHash ? [entry.contentHash] : [])];
    const lookup = found.get(memoryId);
    if (!lookup || lookup.status !== 'found' || lookup.key.keyId !== entry.value.keyId) {
      out.set(memoryId, { texts: [], keyedHashes });
      continue;
    }
    const place = { ...ref, memoryId };
    const value = valueSchema.parse(JSON.parse(open(entry.value, lookup.key.key, { ...place, field: 'value' }))) as Value;
    const texts = [
      renderValue(value),
      canonicalValueJson(value),
      ...(entry.content ? [open(entry.content, lookup.key.key, { ...place, field: 'content' })] : []),
      ...(entry.anticipatedQueries ? openAnticipatedQueries(entry.anticipatedQueries, lookup.key.key, place) : []),
    ];
    out.set(memoryId, { texts, keyedHashes });
  }
  return out;
}
