// The EventStoreDB adapter's own wiring, beyond the shared contract: which
// gRPC calls the real client makes, how the server's answers map to the
// port's errors, client-side filtering and paging of $all. Runs against the
// wire-level double (test/support/esdb-wire-double), which proves wiring, not
// EventStoreDB's semantics.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEsdbEventStore } from '../../src/infrastructure/event-store/esdb/esdb-event-store.js';
import { UnreadableStoredEvent } from '../../src/infrastructure/event-store/esdb/recorded-event.js';
import {
  AppendOutcomeUnknown,
  AppendTooLarge,
  EventStoreAccessDenied,
  EventStoreUnavailable,
  IdempotencyConflict,
  StreamDeleted,
  WrongExpectedVersion,
  type EventStore,
  type NewEvent,
  type StoredEvent,
} from '../../src/infrastructure/event-store/port.js';
import { InvalidEventStoreInput } from '../../src/infrastructure/event-store/postgres/input.js';
import { startEsdbWireDouble, type EsdbWireDouble, type EsdbWireDoubleOptions } from '../support/esdb-wire-double/server.js';

const STREAMS = '/event_store.client.streams.Streams';
const SERVER_FEATURES = '/event_store.client.server_features.ServerFeatures/GetSupportedMethods';

function event(type: string, data: unknown = { n: 1 }): NewEvent {
  return { id: randomUUID(), type, data, metadata: { schemaVersion: 1, actor: 'tester', correlationId: randomUUID() } };
}

function rawEvent(type: string, data: string, customMetadata: string, contentType = 'application/json') {
  return { id: randomUUID(), type, contentType, data: Buffer.from(data), customMetadata: Buffer.from(customMetadata) };
}

async function take(subscription: AsyncIterable<StoredEvent>, count: number): Promise<StoredEvent[]> {
  const received: StoredEvent[] = [];
  if (count === 0) return received;
  for await (const stored of subscription) {
    received.push(stored);
    if (received.length === count) break;
  }
  return received;
}

const modes: EsdbWireDoubleOptions['serverFeatures'][] = ['advertise-batch-append', 'unimplemented'];

/** Every stream these tests write starts so: the store's scope on a log it shares with system and foreign events. */
const SCOPE = 'wiring-';
const open = (url: string) => openEsdbEventStore(url, { streamPrefixes: [SCOPE] });

describe.each(modes)('EventStoreDB adapter over the wire-level gRPC double (ServerFeatures: %s)', (serverFeatures) => {
  let double: EsdbWireDouble;
  let store: EventStore;
  const prefix = () => `${SCOPE}${randomUUID().slice(0, 8)}-`;

  beforeAll(async () => {
    double = await startEsdbWireDouble({ serverFeatures });
    store = open(double.url);
  });
  afterAll(async () => {
    await store?.close();
    await double?.close();
  });

  it('finds the leader with a Read before the first append, then appends through the method ServerFeatures advertises', async () => {
    const own = await startEsdbWireDouble({ serverFeatures });
    const ownStore = open(own.url);
    try {
      const stream = `${prefix()}calls`;
      await ownStore.append(stream, [event('Noted')], { expectedRevision: 'no_stream' });
      await ownStore.readStream(stream);
      await ownStore.readAll({ filter: { streamPrefixes: [stream] } });
      const appendMethod = serverFeatures === 'advertise-batch-append' ? `${STREAMS}/BatchAppend` : `${STREAMS}/Append`;
      // readAll: the log's end, then the filtered read.
      expect(own.calls).toEqual([
        `${STREAMS}/Read`,
        SERVER_FEATURES,
        appendMethod,
        `${STREAMS}/Read`,
        `${STREAMS}/Read`,
        `${STREAMS}/Read`,
      ]);
    } finally {
      await ownStore.close();
      await own.close();
    }
  });

  it('maps WrongExpectedVersionError to the port error with stream, expected and actual, and writes nothing', async () => {
    const stream = `${prefix()}wev`;
    await store.append(stream, [event('A'), event('B')], { expectedRevision: 'no_stream' });
    const cases: Array<[Parameters<EventStore['append']>[2]['expectedRevision'], string, number | 'no_stream']> = [
      [0, stream, 1],
      ['no_stream', stream, 1],
      ['stream_exists', `${stream}-missing`, 'no_stream'],
      [3, `${stream}-missing`, 'no_stream'],
    ];
    for (const [expectedRevision, target, actual] of cases) {
      const error = await store.append(target, [event('C')], { expectedRevision }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedVersion);
      expect(error).toMatchObject({ stream: target, expected: expectedRevision, actual });
    }
    expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B']);
    expect(await store.readStream(`${stream}-missing`)).toEqual([]);
  });

  it('reports a retry that matches a stored batch only in part as IdempotencyConflict (the server says WrongExpectedVersion)', async () => {
    const stream = `${prefix()}partial`;
    const first = event('A');
    await store.append(stream, [first, event('B')], { expectedRevision: 'no_stream' });
    for (const expectedRevision of ['any', 'stream_exists', 'no_stream'] as const) {
      const error = await store.append(stream, [first, event('Other')], { expectedRevision }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyConflict);
      expect(error).toMatchObject({ stream, eventId: first.id });
    }
    expect(await store.readStream(stream)).toHaveLength(2);
  });

  it('recognises an `any` retry only while the committed-events cache holds its ids; exact and no_stream retries at any age', async () => {
    // About two entries of 28 + 2 x 40 bytes: the next append pushes the oldest out.
    const own = await startEsdbWireDouble({ serverFeatures, idCacheBytes: 240 });
    const ownStore = open(own.url);
    try {
      const stream = `${prefix()}cache`;
      const created = [event('A')];
      const first = await ownStore.append(stream, created, { expectedRevision: 'no_stream' });
      const viaAny = [event('B')];
      await ownStore.append(stream, viaAny, { expectedRevision: 'any' });
      const exact = [event('C')];
      const third = await ownStore.append(stream, exact, { expectedRevision: 1 });
      await ownStore.append(stream, [event('D'), event('E')], { expectedRevision: 2 });
      own.log.restart();
      // By place in the stream: still the original results.
      expect(await ownStore.append(stream, created, { expectedRevision: 'no_stream' })).toEqual(first);
      expect(await ownStore.append(stream, exact, { expectedRevision: 1 })).toEqual(third);
      // By id, from a cache that forgot: written again.
      await ownStore.append(stream, viaAny, { expectedRevision: 'any' });
      expect((await ownStore.readStream(stream)).map((e) => e.type)).toEqual(['A', 'B', 'C', 'D', 'E', 'B']);
    } finally {
      await ownStore.close();
      await own.close();
    }
  });

  it('stores ids already stored in another stream again (the server checks ids per stream; PostgreSQL refuses them)', async () => {
    const batch = [event('A')];
    await store.append(`${prefix()}one`, batch, { expectedRevision: 'no_stream' });
    const other = `${prefix()}two`;
    await store.append(other, batch, { expectedRevision: 'no_stream' });
    expect((await store.readStream(other)).map((e) => e.id)).toEqual([batch[0]!.id.toLowerCase()]);
  });

  it('follows a server whose MaxAppendSize is below the one assumed: cuts the batch again, refuses one event over it', async () => {
    const own = await startEsdbWireDouble({ serverFeatures, maxAppendSize: 256 * 1024 });
    const ownStore = open(own.url);
    try {
      const stream = `${prefix()}limit`;
      const batch = Array.from({ length: 10 }, (_, n) => event('Big', { n, blob: 'x'.repeat(60 * 1024) }));
      expect((await ownStore.append(stream, batch, { expectedRevision: 'no_stream' })).nextExpectedRevision).toBe(9);
      expect((await ownStore.readStream(stream)).map((e) => e.id)).toEqual(batch.map((e) => e.id));
      const huge = event('Huge', { blob: 'x'.repeat(300 * 1024) });
      const error = await ownStore.append(stream, [huge], { expectedRevision: 9 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppendTooLarge);
      expect(error).toMatchObject({ stream, eventId: huge.id, limit: 256 * 1024 });
      expect(await ownStore.readStream(stream)).toHaveLength(10);
    } finally {
      await ownStore.close();
      await own.close();
    }
  });

  it('sends every Streams call with requires-leader: a follower refuses it, and the calls go on at the leader', async () => {
    const own = await startEsdbWireDouble({ serverFeatures, connectTo: 'follower' });
    const ownStore = open(own.url);
    const subscriber = open(own.url);
    try {
      const stream = `${prefix()}leader`;
      // A subscription opened first is refused too, and opened again at the leader.
      const subscription = subscriber.subscribeAll({ filter: { streamPrefixes: [stream] } });
      await ownStore.append(stream, [event('A')], { expectedRevision: 'no_stream' });
      expect(await ownStore.readStream(stream)).toHaveLength(1);
      expect(await ownStore.readAll({ filter: { streamPrefixes: [stream] } })).toHaveLength(1);
      expect(await ownStore.headPosition()).toBeDefined();
      expect((await take(subscription, 1)).map((e) => e.stream)).toEqual([stream]);
      const streamCalls = own.requests.filter((r) => r.path.startsWith(STREAMS));
      expect(streamCalls.filter((r) => !r.requiresLeader)).toEqual([]);
      // Each client was refused once by the follower; everything else ran on the leader.
      expect(streamCalls.filter((r) => r.node === 'follower')).toHaveLength(2);
      expect(streamCalls.filter((r) => r.node === 'leader').length).toBeGreaterThanOrEqual(5);
    } finally {
      await subscriber.close();
      await ownStore.close();
      await own.close();
    }
  });

  const answers = [
    ['timeout', AppendOutcomeUnknown, EventStoreUnavailable],
    ['not-ready', AppendOutcomeUnknown, EventStoreUnavailable],
    ['access-denied', EventStoreAccessDenied, EventStoreAccessDenied],
    ['stream-deleted', StreamDeleted, StreamDeleted],
  ] as const;
  it.each(answers)('maps a server answering %s to the port error, for appends and for reads', async (answer, onAppend, onRead) => {
    const stream = `${prefix()}${answer}`;
    double.faults.failNextAppend({ answer });
    const appendError = await store.append(stream, [event('A')], { expectedRevision: 'no_stream' }).catch((e: unknown) => e);
    expect(appendError).toBeInstanceOf(onAppend);
    if (onAppend === StreamDeleted) expect(appendError).toMatchObject({ stream });
    if (onAppend === AppendOutcomeUnknown) expect(appendError).toMatchObject({ stream, retryable: true });
    double.faults.failNextRead({ answer });
    expect(await store.readStream(stream).catch((e: unknown) => e)).toBeInstanceOf(onRead);
    expect(await store.readStream(stream)).toEqual([]);
  });

  it('reports a write whose commit outran the timeout as AppendOutcomeUnknown; a retry while it replicates too; then the original result', async () => {
    const stream = `${prefix()}inflight`;
    const batch = [event('A'), event('B')];
    double.faults.failNextAppend({ answer: 'timeout', written: true, inFlightMs: 400 });
    expect(await store.append(stream, batch, { expectedRevision: 'no_stream' }).catch((e: unknown) => e)).toBeInstanceOf(
      AppendOutcomeUnknown,
    );
    // The server drops a retry of a write it has not indexed yet (IdempotentNotReady): it times out in turn.
    expect(await store.append(stream, batch, { expectedRevision: 'no_stream' }).catch((e: unknown) => e)).toBeInstanceOf(
      AppendOutcomeUnknown,
    );
    await new Promise((resolve) => setTimeout(resolve, 450));
    const settled = await store.append(stream, batch, { expectedRevision: 'no_stream' });
    const stored = await store.readStream(stream);
    expect(stored.map((e) => e.id)).toEqual(batch.map((e) => e.id.toLowerCase()));
    expect(settled).toEqual({ nextExpectedRevision: 1, position: stored[1]!.position });
  });

  it('round-trips ids, data, metadata and a millisecond recordedAt', async () => {
    const stream = `${prefix()}roundtrip`;
    const sent = {
      id: randomUUID().toUpperCase(),
      type: 'Remembered',
      data: { text: 'ü', list: [1, null, true] },
      metadata: { schemaVersion: 3, actor: 'a', causationId: 'c', correlationId: 'k' },
    };
    const before = Date.now();
    await store.append(stream, [sent], { expectedRevision: 'any' });
    const [stored] = await store.readStream(stream);
    expect(stored).toMatchObject({
      id: sent.id.toLowerCase(),
      type: sent.type,
      data: sent.data,
      metadata: sent.metadata,
      stream,
      streamRevision: 0,
    });
    expect(stored!.recordedAt).toBeInstanceOf(Date);
    expect(stored!.recordedAt.getTime()).toBeGreaterThanOrEqual(before);
    expect(stored!.recordedAt.getTime() % 1).toBe(0);
  });

  it('keeps system events ($-streams, $-types) out of readAll, headPosition and subscriptions', async () => {
    const stream = `${prefix()}system`;
    const subscription = store.subscribeAll({ after: await store.headPosition() });
    await store.append(stream, [event('Mine')], { expectedRevision: 'no_stream' });
    double.log.commit('$stats-127.0.0.1:2113', { kind: 'any' }, [rawEvent('$statsCollected', '{}', '')]);
    double.log.commit(stream, { kind: 'any' }, [rawEvent('$metadata', '{}', '{"schemaVersion":1}')]);
    const all = await store.readAll();
    expect(all.filter((e) => e.stream.startsWith('$') || e.type.startsWith('$'))).toEqual([]);
    const mine = all.filter((e) => e.stream === stream);
    expect(mine.map((e) => e.type)).toEqual(['Mine']);
    expect(await store.headPosition()).toEqual(mine[0]!.position);
    await store.append(stream, [event('Later')], { expectedRevision: 'any' });
    const received = await take(subscription, 2);
    expect(received.map((e) => `${e.stream}:${e.type}`)).toEqual([`${stream}:Mine`, `${stream}:Later`]);
    await subscription.close();
  });

  it("keeps other applications' events (binary, JSON without memledger's metadata) out of readAll, headPosition and subscriptions", async () => {
    const own = await startEsdbWireDouble({ serverFeatures, foreignEvents: 10 });
    const ownStore = open(own.url);
    try {
      const stream = `${prefix()}scope`;
      const subscription = ownStore.subscribeAll();
      await ownStore.append(stream, [event('Mine')], { expectedRevision: 'no_stream' });
      own.appendForeign(10);
      await ownStore.append(stream, [event('Later')], { expectedRevision: 0 });
      own.appendForeign(10);
      const all = await ownStore.readAll();
      expect(all.map((e) => `${e.stream}:${e.type}`)).toEqual([`${stream}:Mine`, `${stream}:Later`]);
      expect(await ownStore.headPosition()).toEqual(all[1]!.position);
      expect((await take(subscription, 2)).map((e) => e.id)).toEqual(all.map((e) => e.id));
      // The subscription asked the server for the store's streams only.
      const subscribed = own.requests.find((r) => r.path === `${STREAMS}/Read` && r.filter?.on === 'stream');
      expect(subscribed?.filter).toEqual({ on: 'stream', prefixes: [SCOPE], regex: '' });
    } finally {
      await ownStore.close();
      await own.close();
    }
  });

  it('polls a sparse filter at the cost of what is new, not of the log: events scanned and served per call', async () => {
    const own = await startEsdbWireDouble({ serverFeatures });
    const ownStore = open(own.url);
    const readCost = async (work: () => Promise<unknown>) => {
      const before = own.requests.length;
      await work();
      const reads = own.requests.slice(before).filter((r) => r.meter);
      return {
        calls: reads.length,
        scanned: reads.reduce((n, r) => n + r.meter!.scanned, 0),
        served: reads.reduce((n, r) => n + r.meter!.served, 0),
      };
    };
    try {
      const sparse = { streamPrefixes: [`${prefix()}sparse`] };
      const busy = `${prefix()}busy`;
      await ownStore.append(sparse.streamPrefixes[0]!, [event('Rare')], { expectedRevision: 'no_stream' });
      for (let i = 0; i < 10; i++) {
        await ownStore.append(
          busy,
          Array.from({ length: 100 }, () => event('Busy')),
          { expectedRevision: 'any' },
        );
        own.appendForeign(100);
      }
      const [rare] = await ownStore.readAll({ filter: sparse });
      // Empty polls, as a worker polling every 250 ms makes them: each costs a few events, not the 2,000 after `rare`.
      for (let poll = 0; poll < 5; poll++) {
        const cost = await readCost(async () => expect(await ownStore.readAll({ after: rare!.position, filter: sparse })).toEqual([]));
        expect(cost.served).toBeLessThanOrEqual(2);
        if (poll > 0) expect(cost.scanned).toBeLessThanOrEqual(2);
      }
      // New events cost what they are.
      await ownStore.append(
        busy,
        Array.from({ length: 50 }, () => event('Busy')),
        { expectedRevision: 'any' },
      );
      const next = event('Rare');
      await ownStore.append(sparse.streamPrefixes[0]!, [next], { expectedRevision: 0 });
      let found: StoredEvent[] = [];
      const cost = await readCost(async () => (found = await ownStore.readAll({ after: rare!.position, filter: sparse })));
      expect(found.map((e) => e.id)).toEqual([next.id]);
      expect(cost.served).toBeLessThanOrEqual(3);
      expect(cost.scanned).toBeLessThanOrEqual(60);
    } finally {
      await ownStore.close();
      await own.close();
    }
  });

  it('reads $all past page boundaries with `after` exclusive, inside a batch too', async () => {
    const stream = `${prefix()}paging`;
    for (let batch = 0; batch < 12; batch++) {
      await store.append(
        stream,
        Array.from({ length: 100 }, (_, i) => event('Paged', { n: batch * 100 + i })),
        { expectedRevision: 'any' },
      );
    }
    const filter = { streamPrefixes: [stream] };
    const all = await store.readAll({ filter });
    expect(all.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 1200 }, (_, n) => n));
    // Event 549 sits inside a batch and past the first 500-event page.
    const after = await store.readAll({ filter, after: all[549]!.position, maxCount: 600 });
    expect(after.map((e) => (e.data as { n: number }).n)).toEqual(Array.from({ length: 600 }, (_, i) => 550 + i));
    expect(await store.readStream(stream, { fromRevision: 1198 })).toHaveLength(2);
    // A small maxCount over a sparse filter keeps paging until it finds a match.
    const tail = [event('Tail'), event('Tail')];
    await store.append(`${stream}-tail`, tail, { expectedRevision: 'no_stream' });
    expect((await store.readAll({ filter: { streamPrefixes: [`${stream}-tail`] }, maxCount: 1 })).map((e) => e.id)).toEqual([tail[0]!.id]);
  });

  it('filters a subscription on stream and event-type prefixes together (the server filters on one of them)', async () => {
    const base = prefix();
    const subscription = store.subscribeAll({
      after: await store.headPosition(),
      filter: { streamPrefixes: [`${base}a`], eventTypePrefixes: ['Keep'] },
    });
    await store.append(`${base}a-1`, [event('KeepThis'), event('DropThis')], { expectedRevision: 'any' });
    await store.append(`${base}b-1`, [event('KeepThis')], { expectedRevision: 'any' });
    await store.append(`${base}a-2`, [event('KeepToo')], { expectedRevision: 'any' });
    const received = await take(subscription, 2);
    expect(received.map((e) => `${e.stream}:${e.type}`)).toEqual([`${base}a-1:KeepThis`, `${base}a-2:KeepToo`]);
    await subscription.close();
  });

  it('refuses events other writers left unreadable, naming the field', async () => {
    const stream = `${prefix()}foreign`;
    double.log.commit(stream, { kind: 'any' }, [rawEvent('NoVersion', '{}', '{"actor":"x"}')]);
    await expect(store.readStream(stream)).rejects.toMatchObject({
      name: 'UnreadableStoredEvent',
      field: 'metadata.schemaVersion',
      stream,
    });
    const binary = `${prefix()}binary`;
    double.log.commit(binary, { kind: 'any' }, [rawEvent('Bytes', 'xyz', '{"schemaVersion":1}', 'application/octet-stream')]);
    await expect(store.readAll({ filter: { streamPrefixes: [binary] } })).rejects.toBeInstanceOf(UnreadableStoredEvent);
  });

  it('rejects bad input with a typed error naming the field before anything goes on the wire', async () => {
    const stream = `${prefix()}bad`;
    const callsBefore = double.calls.length;
    const error = await store
      .append(stream, [event('Fine'), { ...event('Bad'), id: 'not-a-uuid' }], { expectedRevision: 'any' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidEventStoreInput);
    expect(error).toMatchObject({ field: 'events.1.id' });
    expect(double.calls.length).toBe(callsBefore);
    expect(() => open('postgres://localhost/x')).toThrow(InvalidEventStoreInput);
    expect(() => openEsdbEventStore(double.url, { streamPrefixes: ['$et-'] })).toThrow(/streamPrefixes/);
    // Client 6.2.1 parses esdb:// and esdb+discover:// only.
    for (const url of ['kurrentdb://127.0.0.1:2113?tls=false', 'kdb+discover://127.0.0.1:2113?tls=false']) {
      expect(() => open(url)).toThrow(/url: expected esdb:\/\/ or esdb\+discover:\/\//);
    }
  });

  it('positions every event of a batch on its own (commit = prepare), and an append reports its last event', async () => {
    const stream = `${prefix()}positions`;
    const result = await store.append(stream, [event('A'), event('B'), event('C')], { expectedRevision: 'no_stream' });
    const stored = await store.readStream(stream);
    const fromLog = await store.readAll({ filter: { streamPrefixes: [stream] } });
    expect(fromLog.map((e) => e.position)).toEqual(stored.map((e) => e.position));
    for (const { position } of stored) expect(position.commit).toBe(position.prepare);
    expect(new Set(stored.map((e) => e.position.commit)).size).toBe(3);
    expect(result.position).toEqual(stored[2]!.position);
  });

  it('closes cleanly whether or not it was used', async () => {
    await open(double.url).close();
  });

  it('ends the iteration of open subscriptions when the store closes', async () => {
    const own = open(double.url);
    const subscription = own.subscribeAll({ filter: { streamPrefixes: [prefix()] } });
    const iteration = take(subscription, 1);
    await own.close();
    expect(await iteration).toEqual([]);
  });
});
