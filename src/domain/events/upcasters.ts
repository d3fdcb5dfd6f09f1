// Upcasters read an older stored shape as the next version, one step at a
// time, so events are never rewritten in the store.
import type { EventType } from './catalog.js';
import { legacyRecord } from '../compaction/legacy.js';

/** Turns data of `fromVersion` into data of `fromVersion + 1`. Must be pure. */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

const UPCASTERS: ReadonlyMap<string, Upcaster> = new Map<string, Upcaster>([
  // v1 MemoryRecorded predates scopes and polarity: every entry then was
  // unscoped and affirmed.
  ['MemoryRecorded@1', (data) => ({ ...data, scopes: data['scopes'] ?? {}, polarity: data['polarity'] ?? 'affirmed' })],
  // v1 ArtifactGenerated predates compaction records: its cold tier becomes the record's discards, its manifest the pointers.
  ['ArtifactGenerated@1', ({ coldTier, ...data }) => ({ ...data, record: legacyRecord(data['manifest'], coldTier) })],
]);

export function upcasterFor(type: EventType, fromVersion: number): Upcaster | undefined {
  return UPCASTERS.get(`${type}@${fromVersion}`);
}
