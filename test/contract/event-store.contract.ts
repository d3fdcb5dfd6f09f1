// The one contract every event store adapter is held to (DESIGN section 2):
// EventStoreDB's semantics for expected revisions, idempotent retries, stream
// reads, the global log and catch-up subscriptions. A test file calls
// describeEventStoreContract with a target that opens store instances.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  WrongExpectedVersion,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
  type StoredEvent,
} from '../../src/infrastructure/event-store/port.js';
import { describeAppendSize } from './event-store-append-size.contract.js';
import { describeCountAll } from './event-store-count.contract.js';
import { describeAwaitCommitted } from './event-store-horizon.contract.js';
import { describeRecordedAt } from './event-store-recorded-at.contract.js';
import { describeOrderingUnderConcurrency } from './event-store-ordering.contract.js';
import { newEvent, newEvents, outcomeOf, reader, rejectionOf, runNames, type EventStoreContractTarget } from './event-store-fixtures.js';

export type { EventStoreContractTarget } from './event-store-fixtures.js';

export function describeEventStoreContract(target: EventStoreContractTarget): void {
  describe(`event store contract: ${target.name}`, () => {
    const names = runNames();
    let store: EventStore;

    beforeAll(async () => {
      store = await target.open();
    });
    afterAll(async () => {
      await store?.close();
      await target.close?.();
    });

    const ids = (events: readonly { id: string }[]) => events.map((event) => event.id);
    /**
     * The events of a case in the global log, once at least `count` are there.
     * The log may trail commits for a moment (PostgreSQL: while an older
     * transaction is open anywhere on the server); it never reorders or drops.
     */
    async function logOf(prefix: string, count: number): Promise<StoredEvent[]> {
      for (;;) {
        const log = await store.readAll({ filter: { streamPrefixes: [prefix] } });
        if (log.length >= count) return log;
        await sleep(20);
      }
    }

    async function expectWrongExpectedVersion(
      stream: string,
      batch: NewEvent[],
      expected: ExpectedRevision,
      actual: number | 'no_stream',
    ): Promise<void> {
      const before = await store.readStream(stream);
      const error = await rejectionOf(store.append(stream, batch, { expectedRevision: expected }));
      expect(error).toBeInstanceOf(WrongExpectedVersion);
      expect(error).toMatchObject({ stream, expected, actual });
      expect(ids(await store.readStream(stream))).toEqual(ids(before));
    }

    describe('expected revision', () => {
      it('no_stream creates a stream and refuses an existing one', async () => {
        const stream = `${names.casePrefix()}s`;
        const batch = newEvents(3);
        const result = await store.append(stream, batch, { expectedRevision: 'no_stream' });
        expect(result.nextExpectedRevision).toBe(2);
        const stored = await store.readStream(stream);
        expect(ids(stored)).toEqual(ids(batch));
        expect(stored.map((event) => event.streamRevision)).toEqual([0, 1, 2]);
        await expectWrongExpectedVersion(stream, newEvents(2), 'no_stream', 2);
      });

      it('stream_exists refuses a missing stream and accepts an existing one', async () => {
        const stream = `${names.casePrefix()}s`;
        await expectWrongExpectedVersion(stream, newEvents(2), 'stream_exists', 'no_stream');
        expect(await store.readStream(stream)).toEqual([]);
        await store.append(stream, [newEvent()], { expectedRevision: 'no_stream' });
        const result = await store.append(stream, newEvents(2), { expectedRevision: 'stream_exists' });
        expect(result.nextExpectedRevision).toBe(2);
      });

      it('any appends whether or not the stream exists', async () => {
        const stream = `${names.casePrefix()}s`;
        expect((await store.append(stream, newEvents(2), { expectedRevision: 'any' })).nextExpectedRevision).toBe(1);
        expect((await store.append(stream, newEvents(1), { expectedRevision: 'any' })).nextExpectedRevision).toBe(2);
        expect((await store.readStream(stream)).map((event) => event.streamRevision)).toEqual([0, 1, 2]);
      });

      it('an exact revision must equal the last revision of the stream', async () => {
        const stream = `${names.casePrefix()}s`;
        await expectWrongExpectedVersion(stream, newEvents(1), 0, 'no_stream');
        await store.append(stream, newEvents(2), { expectedRevision: 'no_stream' });
        expect((await store.append(stream, newEvents(1), { expectedRevision: 1 })).nextExpectedRevision).toBe(2);
        await expectWrongExpectedVersion(stream, newEvents(1), 1, 2);
        await expectWrongExpectedVersion(stream, newEvents(1), 5, 2);
        expect((await store.append(stream, newEvents(1), { expectedRevision: 2 })).nextExpectedRevision).toBe(3);
      });

      it('a mismatch writes nothing of the batch, in the stream or in the global log', async () => {
        const prefix = names.casePrefix();
        const stream = `${prefix}s`;
        await store.append(stream, newEvents(2), { expectedRevision: 'no_stream' });
        const refused = newEvents(5);
        await expectWrongExpectedVersion(stream, refused, 0, 1);
        const log = await logOf(prefix, 2);
        expect(log).toHaveLength(2);
        expect(ids(log)).not.toEqual(expect.arrayContaining([refused[0]!.id]));
      });

      it('of concurrent appends expecting the same revision, exactly one wins, whole', async () => {
        const stream = `${names.casePrefix()}s`;
        await store.append(stream, [newEvent()], { expectedRevision: 'no_stream' });
        const batches = Array.from({ length: 5 }, () => newEvents(10));
        const outcomes = await Promise.allSettled(batches.map((batch) => store.append(stream, batch, { expectedRevision: 0 })));
        const winners = outcomes.flatMap((outcome, i) => (outcome.status === 'fulfilled' ? [batches[i]!] : []));
        expect(winners).toHaveLength(1);
        for (const outcome of outcomes) {
          if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ stream, expected: 0, actual: 10 });
        }
        expect(ids((await store.readStream(stream)).slice(1))).toEqual(ids(winners[0]!));
      });

      it('concurrent batches with any are never interleaved', async () => {
        const stream = `${names.casePrefix()}s`;
        const batches = Array.from({ length: 6 }, () => newEvents(8));
        await Promise.all(batches.map((batch) => store.append(stream, batch, { expectedRevision: 'any' })));
        const stored = ids(await store.readStream(stream));
        expect(stored).toHaveLength(48);
        const chunks = Array.from({ length: 6 }, (_, i) => stored.slice(i * 8, i * 8 + 8));
        expect(chunks.map((chunk) => chunk.join()).sort()).toEqual(batches.map((batch) => ids(batch).join()).sort());
      });
    });

    it('an append that says what it wrote says what a read of the stream returns', async () => {
      const stream = `${names.casePrefix()}s`;
      await store.append(stream, newEvents(2), { expectedRevision: 'no_stream' });
      const batch = [newEvent('ContractNoted', { z: 1, a: { nested: [1, 'two', null], b: true }, text: 'é \u2028' }), ...newEvents(2)];
      const result = await store.append(stream, batch, { expectedRevision: 1 });
      // Optional in the port (EventStoreDB does not return them); where present, exact.
      if (result.written !== undefined) {
        expect(result.written).toEqual(await store.readStream(stream, { fromRevision: 2 }));
        expect(result.written.at(-1)!.position).toEqual(result.position);
      }
    });

    describe('idempotent retries', () => {
      it('a retry with the same exact expected revision succeeds with the original result and writes nothing', async () => {
        const prefix = names.casePrefix();
        const stream = `${prefix}s`;
        await store.append(stream, newEvents(2), { expectedRevision: 'no_stream' });
        const batch = newEvents(3);
        const first = await store.append(stream, batch, { expectedRevision: 1 });
        const retry = await store.append(stream, batch, { expectedRevision: 1 });
        expect(outcomeOf(retry)).toEqual(outcomeOf(first));
        // Still idempotent after the stream moved on.
        await store.append(stream, newEvents(1), { expectedRevision: 4 });
        expect(outcomeOf(await store.append(stream, batch, { expectedRevision: 1 }))).toEqual(outcomeOf(first));
        expect(await store.readStream(stream)).toHaveLength(6);
        expect(await logOf(prefix, 6)).toHaveLength(6);
      });

      it('a retry with no_stream succeeds with the original result and writes nothing, after the stream moved on too', async () => {
        const stream = `${names.casePrefix()}s`;
        const created = newEvents(2);
        const first = await store.append(stream, created, { expectedRevision: 'no_stream' });
        expect(outcomeOf(await store.append(stream, created, { expectedRevision: 'no_stream' }))).toEqual(outcomeOf(first));
        const more = newEvents(2);
        await store.append(stream, more, { expectedRevision: 1 });
        expect(outcomeOf(await store.append(stream, created, { expectedRevision: 'no_stream' }))).toEqual(outcomeOf(first));
        expect(ids(await store.readStream(stream))).toEqual([...ids(created), ...ids(more)]);
      });
      // A retry with `any` is idempotent only while the store remembers its
      // ids (EventStoreDB: an 8 MiB cache, emptied by a restart), so it is
      // not part of the contract: memledger never appends with `any`
      // (postgres-adapter.test.ts and esdb-wiring.test.ts pin each store's).
    });

    describe('reading a stream', () => {
      it('reads forwards and backwards from a revision, at most maxCount', async () => {
        const stream = `${names.casePrefix()}s`;
        const batch = newEvents(10);
        await store.append(stream, batch.slice(0, 4), { expectedRevision: 'no_stream' });
        await store.append(stream, batch.slice(4), { expectedRevision: 3 });
        const revisions = (events: StoredEvent[]) => events.map((event) => event.streamRevision);
        expect(ids(await store.readStream(stream))).toEqual(ids(batch));
        expect(revisions(await store.readStream(stream, { fromRevision: 3, maxCount: 4 }))).toEqual([3, 4, 5, 6]);
        expect(revisions(await store.readStream(stream, { fromRevision: 8 }))).toEqual([8, 9]);
        expect(revisions(await store.readStream(stream, { direction: 'backwards', maxCount: 3 }))).toEqual([9, 8, 7]);
        expect(revisions(await store.readStream(stream, { direction: 'backwards', fromRevision: 2 }))).toEqual([2, 1, 0]);
        expect(revisions(await store.readStream(stream, { direction: 'backwards', fromRevision: 6, maxCount: 2 }))).toEqual([6, 5]);
        expect(await store.readStream(stream, { fromRevision: 10 })).toEqual([]);
      });

      it('a stream that does not exist reads as empty, both ways', async () => {
        const stream = `${names.casePrefix()}missing`;
        expect(await store.readStream(stream)).toEqual([]);
        expect(await store.readStream(stream, { direction: 'backwards', maxCount: 5 })).toEqual([]);
      });

      it('round-trips type, data, metadata and the store commit time', async () => {
        const stream = `${names.casePrefix()}s`;
        const data = { text: 'Prefers SMS; never phone calls — ✓', amount: '12.50', nested: { list: [1, null, true] } };
        const event: NewEvent = {
          id: newEvent().id,
          type: 'ContractRoundTripped',
          data,
          metadata: { schemaVersion: 3, correlationId: 'corr-1', causationId: 'cause-1', actor: 'agent:alpha' },
        };
        const before = Date.now();
        await store.append(stream, [event], { expectedRevision: 'no_stream' });
        const after = Date.now();
        const [stored] = await store.readStream(stream);
        expect(stored).toMatchObject({ id: event.id, type: event.type, data, metadata: event.metadata, stream, streamRevision: 0 });
        expect(stored!.recordedAt).toBeInstanceOf(Date);
        // The store's clock, not ours: only a loose sanity window (units, epoch).
        expect(Math.abs(stored!.recordedAt.getTime() - (before + after) / 2)).toBeLessThan(5 * 60_000);
        const [fromLog] = await logOf(stream, 1);
        expect(fromLog).toEqual(stored);
      });
    });

    describe('the global log', () => {
      it('holds every append in order, with strictly increasing positions; pages with after and maxCount', async () => {
        const prefix = names.casePrefix();
        const appended: NewEvent[] = [];
        const results = [];
        for (let round = 0; round < 4; round++) {
          for (const name of ['a', 'b', 'c']) {
            const batch = newEvents(round + 1);
            results.push(await store.append(`${prefix}${name}`, batch, { expectedRevision: 'any' }));
            appended.push(...batch);
          }
        }
        const log = await logOf(prefix, appended.length);
        expect(ids(log)).toEqual(ids(appended));
        for (let i = 1; i < log.length; i++) expect(comparePositions(log[i - 1]!.position, log[i]!.position)).toBe(-1);
        // The result of an append points at (or, for a batch, not before) its last event.
        const lastEvent = log[log.length - 1]!;
        expect(comparePositions(results[results.length - 1]!.position, lastEvent.position)).toBeGreaterThanOrEqual(0);
        expect(results[0]!.position).toEqual(log[0]!.position);

        const paged: StoredEvent[] = [];
        for (let page = await store.readAll({ maxCount: 7, filter: { streamPrefixes: [prefix] } }); page.length > 0;) {
          expect(page.length).toBeLessThanOrEqual(7);
          paged.push(...page);
          page = await store.readAll({ after: page[page.length - 1]!.position, maxCount: 7, filter: { streamPrefixes: [prefix] } });
        }
        expect(ids(paged)).toEqual(ids(appended));
        expect(await store.readAll({ after: lastEvent.position, filter: { streamPrefixes: [prefix] } })).toEqual([]);
        const head = await store.headPosition();
        expect(head && comparePositions(head, lastEvent.position)).toBeGreaterThanOrEqual(0);
      });

      it('filters by stream prefixes and by event type prefixes', async () => {
        const prefix = names.casePrefix();
        const kinds = ['ContractAlpha', 'ContractBeta', 'ContractBetamax'];
        const appended: StoredEvent[] = [];
        for (const stream of ['x-1', 'x-2', 'y-1']) {
          for (const type of kinds) await store.append(`${prefix}${stream}`, [newEvent(type)], { expectedRevision: 'any' });
        }
        appended.push(...(await logOf(prefix, 9)));
        expect(appended).toHaveLength(9);
        const select = (keep: (event: StoredEvent) => boolean) => ids(appended.filter(keep));
        expect(ids(await store.readAll({ filter: { streamPrefixes: [`${prefix}x-`] } }))).toEqual(
          select((e) => e.stream.startsWith(`${prefix}x-`)),
        );
        expect(ids(await store.readAll({ filter: { streamPrefixes: [`${prefix}x-2`, `${prefix}y-`] } }))).toEqual(
          select((e) => e.stream !== `${prefix}x-1`),
        );
        expect(ids(await store.readAll({ filter: { streamPrefixes: [prefix], eventTypePrefixes: ['ContractBeta'] } }))).toEqual(
          select((e) => e.type.startsWith('ContractBeta')),
        );
        expect(
          ids(await store.readAll({ filter: { streamPrefixes: [prefix], eventTypePrefixes: ['ContractAlpha', 'ContractBetamax'] } })),
        ).toEqual(select((e) => e.type !== 'ContractBeta'));
      });
    });

    describe('a page of the log, and how far it examined', () => {
      it('a filtered page holds every matching event up to examinedTo, at or past the events it passed over', async () => {
        const prefix = names.casePrefix();
        const kept: string[] = [];
        for (let i = 0; i < 3; i++) {
          await store.append(`${prefix}other-${i}`, newEvents(2), { expectedRevision: 'any' });
          const batch = newEvents(1);
          await store.append(`${prefix}kept-${i}`, batch, { expectedRevision: 'any' });
          kept.push(...ids(batch));
        }
        const tail = newEvents(2);
        await store.append(`${prefix}other-tail`, tail, { expectedRevision: 'any' });
        const log = await logOf(prefix, 11);
        const before = log[0]!.position;
        const lastOfCase = log.at(-1)!.position;
        const filter = { streamPrefixes: [`${prefix}kept-`] };
        // Events other cases append may lie between ours: what the page examined is read back unfiltered to check.
        const between = async (after: { commit: bigint; prepare: bigint }, to: { commit: bigint; prepare: bigint }) =>
          (await store.readAll({ after, filter: { streamPrefixes: [prefix] } })).filter((e) => comparePositions(e.position, to) <= 0);

        const whole = await store.readPage({ after: before, maxCount: 100, filter });
        expect(ids(whole.events)).toEqual(kept);
        // A short page examined the log at least to the last event of the case: the tail it matched nothing in is behind it.
        expect(comparePositions(whole.examinedTo!, lastOfCase)).toBeGreaterThanOrEqual(0);
        expect(ids((await between(before, whole.examinedTo!)).filter((e) => e.stream.startsWith(`${prefix}kept-`)))).toEqual(kept);
        // Nothing matching lies after it yet.
        expect((await store.readPage({ after: whole.examinedTo!, maxCount: 100, filter })).events).toEqual([]);

        // A full page examined up to its last event, no further.
        const first = await store.readPage({ after: before, maxCount: 1, filter });
        expect(ids(first.events)).toEqual(kept.slice(0, 1));
        expect(first.examinedTo).toEqual(first.events[0]!.position);
        const rest = await store.readPage({ after: first.examinedTo!, maxCount: 100, filter });
        expect(ids(rest.events)).toEqual(kept.slice(1));

        // Without a filter, it is readAll's page.
        const plain = await store.readPage({ after: before, maxCount: 4, filter: { streamPrefixes: [prefix] } });
        expect(ids(plain.events)).toEqual(ids(log.slice(1, 5)));
        expect(plain.examinedTo).toEqual(log[4]!.position);
      });

      it('refuses a page without a positive maxCount, naming it', async () => {
        await expect(store.readPage({ maxCount: 0 })).rejects.toMatchObject({ field: 'maxCount' });
      });
    });

    describe('catch-up subscription', () => {
      it('catches up from a checkpoint, then goes live, and close() ends the iteration', async () => {
        const prefix = names.casePrefix();
        for (const [i, stream] of ['a', 'b', 'a', 'c', 'b'].entries()) {
          await store.append(`${prefix}${stream}`, [newEvent('ContractNoted', { i })], { expectedRevision: 'any' });
        }
        const history = await logOf(prefix, 5);
        const subscription = store.subscribeAll({ after: history[1]!.position, filter: { streamPrefixes: [prefix] } });
        const events = reader(subscription);
        expect(ids(await events.take(3))).toEqual(ids(history.slice(2)));

        const live = [newEvents(2), newEvents(1)];
        await store.append(`${prefix}c`, live[0]!, { expectedRevision: 'any' });
        await store.append(`${prefix}d`, live[1]!, { expectedRevision: 'no_stream' });
        const received = await events.take(3);
        expect(ids(received)).toEqual(ids(live.flat()));
        expect(comparePositions(history[4]!.position, received[0]!.position)).toBe(-1);

        const waiting = events.next();
        await subscription.close();
        expect(await waiting).toEqual({ done: true, value: undefined });
      });

      it('from the start of the log delivers everything matching its filter, once', async () => {
        const prefix = names.casePrefix();
        const batch = newEvents(4);
        await store.append(`${prefix}s`, batch, { expectedRevision: 'no_stream' });
        const subscription = store.subscribeAll({ filter: { streamPrefixes: [prefix] } });
        const events = reader(subscription);
        expect(ids(await events.take(4))).toEqual(ids(batch));
        const more = newEvent();
        await store.append(`${prefix}s`, [more], { expectedRevision: 3 });
        expect(ids(await events.take(1))).toEqual([more.id]);
        await subscription.close();
        expect((await events.next()).done).toBe(true);
      });
    });

    describeCountAll(() => store, names);
    describeAwaitCommitted(target, () => store, names);
    describeAppendSize(target, () => store, names);
    describeRecordedAt(target, () => store, names);

    if (target.capabilities?.concurrentWriters !== false) {
      describeOrderingUnderConcurrency(target, () => store, names);
    }
  });
}
