// Opens the personal fields of a subject's entries, in memory only, for a
// consolidation (and an erasure's needles, and the vector index): the sealed
// value, content and anticipated queries come from the entries'
// MemoryRecorded events, the keys from the key store. An entry whose key is
// gone (an erasure in progress) stays closed and is not an input.
import type { EntryState } from '../../domain/subject/state.js';
import type { SubjectEventData } from '../../domain/events/subject-events.js';
import { valueSchema, type Value } from '../../domain/values/value.js';
import { SEALED_ENTRY_FIELDS, presentFields, type SealedEntryField } from '../../domain/entry/fields.js';
import type { SealedEntry } from '../../domain/entry/sealed-entry.js';
import { openAnticipatedQueries } from './anticipated-queries.js';
import { openEntryField } from './entry-field.js';
import type { EventStore, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { KeyLookup, KeyStore, MemoryKey, SubjectRef } from '../../infrastructure/key-store/port.js';
import type { LoadedStream } from '../streams/loaded-stream.js';
import { placedEvent } from '../streams/placed-event.js';
import { recordedPlace } from '../streams/subject-repository.js';

const PAGE = 4096;
/** The key store reads at most 10,000 keys per call. */
const KEY_CHUNK = 5000;

export interface OpenedEntry {
  readonly value: Value;
  readonly content?: string;
  readonly anticipatedQueries?: readonly string[];
  /** What the write gate found in it (absent: recorded before the gate): a summary never carries flagged content. */
  readonly writeGate?: WriteGateFlags;
}

export interface WriteGateFlags {
  readonly untrusted: boolean;
  /** Detection kinds, e.g. `injection:role_override` (never a value). */
  readonly detections: readonly string[];
}

/** An entry's opened fields; undefined when it was not asked for or its key is gone. */
export type OpenEntryFields = (entry: Pick<EntryState, 'memoryId'>) => OpenedEntry | undefined;

export async function openEntries(
  store: EventStore,
  keys: KeyStore,
  ref: SubjectRef,
  stream: string,
  throughRevision: number,
  memoryIds: ReadonlySet<string>,
  /**
   * The subject's fold, when the caller opens a few entries: each entry's MemoryRecorded is read alone at
   * the place the fold keeps (a bulk open scans pages instead: one statement per 4,096 events).
   */
  fold?: LoadedStream<unknown>,
): Promise<OpenEntryFields> {
  const sealed = new Map<string, Pick<SealedEntry, SealedEntryField>>();
  const gates = new Map<string, WriteGateFlags>();
  const take = (events: readonly StoredEvent[]) => {
    for (const event of events) {
      if (event.type !== 'MemoryRecorded') continue;
      const data = event.data as SubjectEventData<'MemoryRecorded'>;
      if (!memoryIds.has(data.memoryId) || sealed.has(data.memoryId)) continue;
      sealed.set(data.memoryId, { value: data.value, ...presentFields(data, SEALED_ENTRY_FIELDS) });
      if (data.gate) gates.set(data.memoryId, { untrusted: data.gate.untrusted, detections: data.gate.detections.map((d) => d.kind) });
    }
  };
  // Each event whose place is known, alone: a write into a slot whose value was set long ago read the
  // stream back to it, page by page (up to 4,096 events parsed for one entry).
  if (fold) {
    const placed = await Promise.all([...memoryIds].map((id) => placedEvent(store, fold, recordedPlace(id))));
    take(placed.filter((stored): stored is StoredEvent => stored !== undefined && stored.streamRevision <= throughRevision));
  }
  // The others: newest page first, until every asked-for entry is found.
  for (let to = throughRevision; to >= 0 && sealed.size < memoryIds.size; to -= PAGE) {
    const from = Math.max(0, to - PAGE + 1);
    take([...(await store.readStream(stream, { fromRevision: from, maxCount: to - from + 1 }))].reverse());
  }
  const ids = [...sealed.keys()];
  const found = new Map<string, KeyLookup<MemoryKey>>();
  for (let i = 0; i < ids.length; i += KEY_CHUNK) {
    for (const [id, lookup] of await keys.memoryKeys(ref, ids.slice(i, i + KEY_CHUNK))) found.set(id, lookup);
  }
  const opened = new Map<string, OpenedEntry>();
  for (const [memoryId, fields] of sealed) {
    const entry = openSealedFields(fields, found.get(memoryId), { ...ref, memoryId });
    const gate = gates.get(memoryId);
    if (entry) opened.set(memoryId, gate ? { ...entry, writeGate: gate } : entry);
  }
  return (entry) => opened.get(entry.memoryId);
}

/** One entry's (or candidate's) sealed fields opened; undefined when its key is gone or another key's. */
export function openSealedFields(
  fields: Pick<SealedEntry, SealedEntryField>,
  lookup: KeyLookup<MemoryKey> | undefined,
  place: SubjectRef & { readonly memoryId: string },
): OpenedEntry | undefined {
  if (!lookup || lookup.status !== 'found' || lookup.key.keyId !== fields.value.keyId) return undefined;
  const value = valueSchema.parse(openEntryField('value', fields.value, lookup.key.key, place)) as Value;
  const content = fields.content ? openEntryField('content', fields.content, lookup.key.key, place) : undefined;
  const queries = fields.anticipatedQueries ? openAnticipatedQueries(fields.anticipatedQueries, lookup.key.key, place) : undefined;
  return {
    value,
    ...(content !== undefined ? { content } : {}),
    ...(queries !== undefined ? { anticipatedQueries: queries } : {}),
  };
}
