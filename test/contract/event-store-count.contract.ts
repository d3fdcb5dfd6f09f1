// countAll: how many events readAll would return (after, filter) at or before
// `upTo`, counted to a limit. PostgreSQL counts without reading the events,
// EventStoreDB by reading them; both answer the same.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { EventStore, StoredEvent } from '../../src/infrastructure/event-store/port.js';
import { newEvent, type runNames } from './event-store-fixtures.js';

export function describeCountAll(store: () => EventStore, names: ReturnType<typeof runNames>): void {
  describe('counting the global log', () => {
    /** The case's events in the log, once all `count` show (the log may trail commits for a moment). */
    async function logOf(prefix: string, count: number): Promise<StoredEvent[]> {
      for (;;) {
        const log = await store().readAll({ filter: { streamPrefixes: [prefix] } });
        if (log.length >= count) return log;
        await sleep(20);
      }
    }

    it('counts what readAll returns after a position, up to another, filtered, stopping at the limit', async () => {
      const prefix = names.casePrefix();
      for (const stream of ['x-1', 'y-1', 'x-2']) {
        for (const type of ['ContractAlpha', 'ContractBeta'])
          await store().append(`${prefix}${stream}`, [newEvent(type)], { expectedRevision: 'any' });
      }
      const log = await logOf(prefix, 6);
      const count = (options: Omit<Parameters<EventStore['countAll']>[0], 'filter'>, filter = { streamPrefixes: [prefix] }) =>
        store().countAll({ ...options, filter });

      expect(await count({ limit: 100 })).toBe(6);
      expect(await count({ after: log[1]!.position, limit: 100 })).toBe(4);
      expect(await count({ upTo: log[2]!.position, limit: 100 })).toBe(3);
      expect(await count({ after: log[1]!.position, upTo: log[4]!.position, limit: 100 })).toBe(3);
      expect(await count({ after: log[5]!.position, limit: 100 })).toBe(0);
      // The limit: a count equal to it means "at least".
      expect(await count({ limit: 4 })).toBe(4);
      expect(await count({ after: log[0]!.position, upTo: log[3]!.position, limit: 2 })).toBe(2);
      expect(await count({ limit: 0 })).toBe(0);
      // Filters as readAll's.
      expect(await count({ limit: 100 }, { streamPrefixes: [`${prefix}x-`] })).toBe(4);
      expect(await store().countAll({ filter: { streamPrefixes: [prefix], eventTypePrefixes: ['ContractBeta'] }, limit: 100 })).toBe(3);
      expect(
        await store().countAll({
          filter: { streamPrefixes: [`${prefix}y-`], eventTypePrefixes: ['ContractAlpha'] },
          after: log[2]!.position,
          limit: 100,
        }),
      ).toBe(0);
    });

    it('refuses a count without a limit, or a negative one, naming it', async () => {
      await expect(store().countAll({ limit: -1 })).rejects.toMatchObject({ field: 'limit' });
      await expect(store().countAll({} as Parameters<EventStore['countAll']>[0])).rejects.toMatchObject({ field: 'limit' });
    });
  });
}
