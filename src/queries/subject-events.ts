// `memledger events`: the decoded subject stream, personal fields opened in
// memory where their key still exists and marked forgotten where it does not.
import { SEALED_ENTRY_FIELDS, type SealedEntryField } from '../domain/entry/fields.js';
import { decodeStoredEvent } from '../domain/events/decode.js';
import type { Sealed } from '../domain/events/sealed.js';
import { subjectStreamName } from '../domain/events/stream-names.js';
import type { EventStore, StoredEvent } from '../infrastructure/event-store/port.js';
import type { KeyLookup, KeyStore, MemoryKey, SubjectRef } from '../infrastructure/key-store/port.js';
import { formatPosition } from '../infrastructure/event-store/port.js';
import { openEntryField, type MemoryPlace } from '../reads/opened/entry-field.js';

/** A personal field as a read path shows it. */
export type OpenedField = { readonly status: 'readable'; readonly plaintext: unknown } | { readonly status: 'forgotten' };

export interface DecodedEvent {
  readonly revision: number;
  readonly position: string;
  readonly recordedAt: string;
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: StoredEvent['metadata'];
}

const PAGE = 4096;

export async function readSubjectEvents(store: EventStore, keys: KeyStore, ref: SubjectRef): Promise<DecodedEvent[]> {
  const stream = subjectStreamName(ref.tenant, ref.subject);
  const stored: StoredEvent[] = [];
  for (;;) {
    const page = await store.readStream(stream, { fromRevision: stored.length, maxCount: PAGE });
    stored.push(...page);
    if (page.length < PAGE) break;
  }
  // A candidate (MemoryProposed) holds an entry sealed under the key of the memory it would become: shown the same way.
  const memoryIds = stored.flatMap((s) =>
    s.type === 'MemoryRecorded' || s.type === 'MemoryProposed' ? [(s.data as { memoryId: string }).memoryId] : [],
  );
  const memoryKeys = memoryIds.length > 0 ? await keys.memoryKeys(ref, memoryIds) : new Map<string, KeyLookup<MemoryKey>>();
  return stored.map((s) => {
    const event = decodeStoredEvent(s);
    let data: unknown = event.data;
    if (event.type === 'MemoryRecorded') data = openedEntry(memoryKeys.get(event.data.memoryId), ref, event.data.memoryId, event.data);
    if (event.type === 'MemoryProposed')
      data = { ...event.data, entry: openedEntry(memoryKeys.get(event.data.memoryId), ref, event.data.memoryId, event.data.entry) };
    return {
      revision: s.streamRevision,
      position: formatPosition(s.position),
      recordedAt: s.recordedAt.toISOString(),
      id: s.id,
      type: s.type,
      data,
      metadata: s.metadata,
    };
  });
}

/** The entry's personal fields opened, or marked forgotten; its keyed hashes (personal data too) shown only while it is readable. */
function openedEntry(
  lookup: KeyLookup<MemoryKey> | undefined,
  ref: SubjectRef,
  memoryId: string,
  entry: { valueHash: string; contentHash?: string } & Partial<Record<SealedEntryField, Sealed>>,
): unknown {
  const { valueHash, contentHash, ...skeleton } = entry;
  const readable = lookup?.status === 'found';
  const opened: Partial<Record<SealedEntryField, OpenedField>> = {};
  for (const field of SEALED_ENTRY_FIELDS) {
    const sealed = entry[field];
    if (sealed) opened[field] = openField(lookup, { ...ref, memoryId }, field, sealed);
  }
  return { ...skeleton, ...(readable ? { valueHash, ...(contentHash ? { contentHash } : {}) } : {}), ...opened };
}

function openField(lookup: KeyLookup<MemoryKey> | undefined, place: MemoryPlace, field: SealedEntryField, sealed: Sealed): OpenedField {
  if (!lookup || lookup.status !== 'found' || lookup.key.keyId !== sealed.keyId) return { status: 'forgotten' };
  return { status: 'readable', plaintext: openEntryField(field, sealed, lookup.key.key, place) };
}
