// recordedAt, the transaction time of the bitemporal model: one instant for
// every event of one append (so "as of" a batch's first event shows the whole
// batch or none of it), and never earlier than the stream's previous event,
// also when the clock steps back (replay, which stops at the first event
// after T, then agrees with asOf, which filters every row on T).
import { describe, expect, it } from 'vitest';
import type { EventStore, StoredEvent } from '../../src/infrastructure/event-store/port.js';
import { newEvents, type EventStoreContractTarget, type runNames } from './event-store-fixtures.js';

const times = (events: readonly StoredEvent[]) => events.map((e) => e.recordedAt.getTime());

function expectNeverBack(events: readonly StoredEvent[]): void {
  const stamps = times(events);
  expect(stamps.filter((t, i) => i > 0 && t < stamps[i - 1]!)).toEqual([]);
}

export function describeRecordedAt(target: EventStoreContractTarget, store: () => EventStore, names: ReturnType<typeof runNames>): void {
  describe('recordedAt', () => {
    it('is one instant for all events of one append, the same in the stream and in the global log', async () => {
      const stream = `${names.casePrefix()}s`;
      await store().append(stream, newEvents(6), { expectedRevision: 'no_stream' });
      await store().append(stream, newEvents(4), { expectedRevision: 5 });
      const stored = await store().readStream(stream);
      expect(new Set(times(stored.slice(0, 6))).size).toBe(1);
      expect(new Set(times(stored.slice(6))).size).toBe(1);
      expectNeverBack(stored);
      let log: StoredEvent[] = [];
      while (log.length < 10) log = await store().readAll({ filter: { streamPrefixes: [stream] } });
      expect(times(log)).toEqual(times(stored));
    });

    const clock = target.capabilities?.clock;
    if (!clock) return;

    it('never goes back within a stream when the clock steps back 5 s between two appends', async () => {
      const stream = `${names.casePrefix()}s`;
      await store().append(stream, newEvents(3), { expectedRevision: 'no_stream' });
      await clock.stepBack(5_000);
      await store().append(stream, newEvents(2), { expectedRevision: 2 });
      // Another instance, which has read nothing of the stream, after another step.
      await clock.stepBack(5_000);
      const other = await target.open();
      try {
        await other.append(stream, newEvents(2), { expectedRevision: 4 });
      } finally {
        await other.close();
      }
      const stored = await store().readStream(stream);
      expect(stored).toHaveLength(7);
      expectNeverBack(stored);
      expect(new Set(times(stored.slice(3, 5))).size).toBe(1);
    });
  });
}
