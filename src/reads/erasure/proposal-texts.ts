// The texts of candidates (MemoryProposed: the entry sealed under the key of
// the memory it would become), opened in memory for an erasure's needles
// while their keys still exist, as openEntries opens an entry's (it reads
// MemoryRecorded only: a proposal is never an entry).
import { canonicalValueJson } from '../../domain/canonical/canonical-value.js';
import { renderValue } from '../../domain/consolidation/rendering.js';
import { decodeStoredEvent } from '../../domain/events/decode.js';
import type { SealedEntry } from '../../domain/entry/sealed-entry.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import type { KeyLookup, KeyStore, MemoryKey, SubjectRef } from '../../infrastructure/key-store/port.js';
import { openSealedFields } from '../opened/opened-entries.js';

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
    const opened = openSealedFields(entry, found.get(memoryId), { ...ref, memoryId });
    const texts = opened
      ? [
          renderValue(opened.value),
          canonicalValueJson(opened.value),
          ...(opened.content !== undefined ? [opened.content] : []),
          ...(opened.anticipatedQueries ?? []),
        ]
      : [];
    out.set(memoryId, { texts, keyedHashes });
  }
  return out;
}
