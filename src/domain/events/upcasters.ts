// Upcasters read an older stored shape as the next version, one step at a
// time, so events are never rewritten in the store.
import type { EventType } from './catalog.js';

/** Turns data of `fromVersion` into data of `fromVersion + 1`. Must be pure. */
export type Upcaster = (data: Record<string, unknown>) => Record<string, unknown>;

const UPCASTERS: ReadonlyMap<string, Upcaster> = new Map<string, Upcaster>([
  // v1 MemoryRecorded predates scopes and polarity: every entry then was
  // unscoped and affirmed.
  ['MemoryRecorded@1', (data) => ({ ...data, scopes: data['scopes'] ?? {}, polarity: data['polarity'] ?? 'affirmed' })],
]);

export function upcasterFor(type: EventType, fromVersion: number): Upcaster | undefined {
  return UPCASTERS.get(`${type}@${fromVersion}`);
}
