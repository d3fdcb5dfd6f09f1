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
  const memoryIds = stored.flatMap((s) => (s.type === 'MemoryRecorded' ? [(s.data as { memoryId: string }).memoryId] : []));
  const memoryKeys = memoryIds.length > 0 ? await keys.memoryKeys(ref, memoryIds) : new Map<string, KeyLookup<MemoryKey>>();
  return stored.map((s) => {
    const event = decodeStoredEvent(s);
    let data: unknown = event.data;
    if (event.type === 'MemoryRecorded') {
      const lookup = memoryKeys.get(event.data.memoryId);
      // Keyed hashes of a forgotten memory are personal data too: shown only while the memory is readable.
      const { valueHash, contentHash, ...skeleton } = event.data;
      const readable = lookup?.status === 'found';
      const opened: Partial<Record<SealedEntryField, OpenedField>> = {};
      for (const field of SEALED_ENTRY_FIELDS) {
        const sealed = event.data[field];
        if (sealed) opened[field] = openField(lookup, { ...ref, memoryId: event.data.memoryId }, field, sealed);
      }
      data = { ...skeleton, ...(readable ? { valueHash, ...(contentHash ? { contentHash } : {}) } : {}), ...opened };
    }
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

function openField(lookup: KeyLookup<MemoryKey> | undefined, place: MemoryPlace, field: SealedEntryField, sealed: Sealed): OpenedField {
  if (!lookup || lookup.status !== 'found' || lookup.key.keyId !== sealed.keyId) return { status: 'forgotten' };
  return { status: 'readable', plaintext: openEntryField(field, sealed, lookup.key.key, place) };
}
