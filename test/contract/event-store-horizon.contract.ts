// Read your writes. A stream shows an append as soon as it returns, to any
// store instance (an EventStoreDB follower would not: its index lags the
// leader's). awaitCommitted: once it resolves, the global log shows every
// event whose append completed before the call — from this store instance or
// another — on the first read, with no retry. (How long it waits is the
// adapter's business: PostgreSQL's stable prefix waits for older transactions.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../../src/infrastructure/event-store/port.js';
import { newEvents, type EventStoreContractTarget, type runNames } from './event-store-fixtures.js';

export function describeAwaitCommitted(
  target: EventStoreContractTarget,
  store: () => EventStore,
  names: ReturnType<typeof runNames>,
): void {
  describe('read your writes, awaitCommitted', () => {
    let writer: EventStore;
    beforeAll(async () => {
      writer = await target.open();
    });
    afterAll(async () => writer?.close());

    it('shows an append in its stream at once, to the writer and to another instance', async () => {
      const stream = `${names.casePrefix()}s`;
      const first = newEvents(2);
      await writer.append(stream, first, { expectedRevision: 'no_stream' });
      expect((await writer.readStream(stream)).map((e) => e.id)).toEqual(first.map((e) => e.id));
      expect((await store().readStream(stream)).map((e) => e.id)).toEqual(first.map((e) => e.id));
      const second = newEvents(1);
      await store().append(stream, second, { expectedRevision: 1 });
      expect((await writer.readStream(stream, { fromRevision: 2 })).map((e) => e.id)).toEqual([second[0]!.id]);
      expect((await writer.readStream(stream, { direction: 'backwards', maxCount: 1 }))[0]?.id).toBe(second[0]!.id);
    });

    it('shows every earlier append in the global log at the first read', async () => {
      const prefix = names.casePrefix();
      const appended: string[] = [];
      for (const [i, instance] of [store(), writer, store(), writer].entries()) {
        const events = newEvents(3);
        await instance.append(`${prefix}s${i}`, events, { expectedRevision: 'no_stream' });
        appended.push(...events.map((e) => e.id));
      }
      await store().awaitCommitted({ timeoutMs: 120_000 });
      const log = await store().readAll({ filter: { streamPrefixes: [prefix] } });
      expect(log.map((e) => e.id).sort()).toEqual([...appended].sort());
    });
  });
}
