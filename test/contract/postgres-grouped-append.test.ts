// Appends made at once go as one statement and one commit
// (grouped-append.ts), and each still gets exactly the answer it would get
// alone: a failing part fails only itself, a retry is answered from what it
// stored, appends with `any` to one stream share a group in order, and two
// with an expected revision never do.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  IdempotencyConflict,
  WrongExpectedVersion,
  type AppendResult,
  type EventStore,
} from '../../src/infrastructure/event-store/port.js';
import { InvalidEventStoreInput, openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/index.js';
import { PostgresEventStore } from '../../src/infrastructure/event-store/postgres/store.js';
import { plannedOncePool } from '../../src/infrastructure/postgres/named-statements.js';
import { Pool } from '../../src/infrastructure/postgres/pool.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { newEvent, newEvents, outcomeOf } from './event-store-fixtures.js';

let database: TestDatabase;
let store: EventStore;

beforeAll(async () => {
  database = await createTestDatabase('pg_grouped_append');
  store = await openPostgresEventStore(database.url, { pollIntervalMs: 50 });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

const prefix = () => `grouped-${randomUUID()}-`;
const commits = (results: readonly AppendResult[]) => results.map((result) => result.position.commit);

describe('PostgreSQL grouped appends', () => {
  it('commits appends to many streams made at once in fewer transactions, each at its own revisions', async () => {
    const p = prefix();
    const streams = Array.from({ length: 20 }, (_, i) => `${p}${i}`);
    const results = await Promise.all(streams.map((stream) => store.append(stream, newEvents(2), { expectedRevision: 'no_stream' })));
    // Alone, each append is its own transaction: 20 commit positions.
    expect(new Set(commits(results)).size).toBeLessThan(20);
    for (const [i, stream] of streams.entries()) {
      expect(results[i]!.nextExpectedRevision).toBe(1);
      const read = await store.readStream(stream);
      expect(read.map((event) => event.streamRevision)).toEqual([0, 1]);
      expect(read.map((event) => event.position)).toEqual(results[i]!.written!.map((event) => event.position));
    }
    // The log shows each stream's events in its order (once every earlier commit shows: a transaction of another test
    // file still running holds the log's stable prefix back).
    await store.awaitCommitted();
    const log = (await store.readAll({ filter: { streamPrefixes: [p] } })).filter((event) => event.stream.startsWith(p));
    expect(log).toHaveLength(40);
    for (const stream of streams)
      expect(log.filter((event) => event.stream === stream).map((event) => event.streamRevision)).toEqual([0, 1]);
  });

  it('runs the group statement on connections of its own, with its generic plan from the first call', async () => {
    // PostgreSQL left to choose planned a custom plan on every call: as long as running the statement.
    const groupPool = plannedOncePool({ connectionString: database.url, max: 1 });
    const own = new PostgresEventStore(new Pool({ connectionString: database.url, max: 4 }), {
      signalConnection: { connectionString: database.url },
      pollIntervalMs: 50,
      groupPool,
    });
    try {
      const p = prefix();
      for (let round = 0; round < 3; round++) {
        const appended = await Promise.all(
          Array.from({ length: 6 }, (_, i) => own.append(`${p}${round}-${i}`, newEvents(1), { expectedRevision: 'no_stream' })),
        );
        expect(appended.map((result) => result.nextExpectedRevision)).toEqual([0, 0, 0, 0, 0, 0]);
      }
      const { rows } = await groupPool.query<{ generic: string; custom: string }>(
        "select generic_plans as generic, custom_plans as custom from pg_prepared_statements where name = 'event_store_append_group'",
      );
      expect(rows).toHaveLength(1);
      expect(Number(rows[0]!.custom)).toBe(0);
      expect(Number(rows[0]!.generic)).toBeGreaterThanOrEqual(3);
    } finally {
      await own.close();
    }
  });

  it('fails only the part whose expected revision is wrong, or whose ids are stored elsewhere, or whose text cannot be stored', async () => {
    const p = prefix();
    await store.append(`${p}taken`, [newEvent()], { expectedRevision: 'no_stream' });
    const stored = newEvent();
    await store.append(`${p}other`, [stored], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 6 }, (_, i) => store.append(`${p}ok-${i}`, [newEvent()], { expectedRevision: 'no_stream' })),
      store.append(`${p}taken`, [newEvent()], { expectedRevision: 'no_stream' }),
      store.append(`${p}elsewhere`, [stored], { expectedRevision: 'any' }),
      store.append(`${p}nul`, [newEvent('ContractNoted', { text: 'a\u0000b' })], { expectedRevision: 'any' }),
      ...Array.from({ length: 6 }, (_, i) => store.append(`${p}ok-${i + 6}`, [newEvent()], { expectedRevision: 'no_stream' })),
    ]);
    const [wrong, elsewhere, nul] = outcomes.slice(6, 9);
    expect(wrong).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedVersion) as unknown });
    expect(elsewhere).toMatchObject({ status: 'rejected', reason: expect.any(IdempotencyConflict) as unknown });
    expect(nul).toMatchObject({ status: 'rejected', reason: expect.any(InvalidEventStoreInput) as unknown });
    const ok = [...outcomes.slice(0, 6), ...outcomes.slice(9)];
    expect(ok.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    for (let i = 0; i < 12; i++) expect(await store.readStream(`${p}ok-${i}`)).toHaveLength(1);
    expect(await store.readStream(`${p}taken`)).toHaveLength(1);
    expect(await store.readStream(`${p}elsewhere`)).toHaveLength(0);
    expect(await store.readStream(`${p}nul`)).toHaveLength(0);
  });

  it('commits the other parts of a group in which one part expected another revision', async () => {
    const p = prefix();
    await store.append(`${p}taken`, [newEvent()], { expectedRevision: 'no_stream' });
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 6 }, (_, i) => store.append(`${p}ok-${i}`, [newEvent()], { expectedRevision: 'no_stream' })),
      store.append(`${p}taken`, [newEvent()], { expectedRevision: 1 }),
      ...Array.from({ length: 6 }, (_, i) => store.append(`${p}ok-${i + 6}`, [newEvent()], { expectedRevision: 'no_stream' })),
    ]);
    expect(outcomes[6]).toMatchObject({ status: 'rejected', reason: expect.any(WrongExpectedVersion) as unknown });
    const ok = [...outcomes.slice(0, 6), ...outcomes.slice(7)].map((outcome) => (outcome as PromiseFulfilledResult<AppendResult>).value);
    expect(ok.every((result) => result.nextExpectedRevision === 0)).toBe(true);
    // They were committed in groups (the failing part among them), not each alone.
    expect(new Set(commits(ok)).size).toBeLessThan(12);
    expect(await store.readStream(`${p}taken`)).toHaveLength(1);
  });

  it('answers a retry made inside a group as the first append did, writing nothing', async () => {
    const p = prefix();
    const events = newEvents(2);
    const first = await store.append(`${p}retried`, events, { expectedRevision: 'no_stream' });
    const [, retried] = await Promise.all([
      store.append(`${p}a`, [newEvent()], { expectedRevision: 'any' }),
      store.append(`${p}retried`, events, { expectedRevision: 'no_stream' }),
      ...Array.from({ length: 8 }, (_, i) => store.append(`${p}b-${i}`, [newEvent()], { expectedRevision: 'any' })),
    ]);
    expect(outcomeOf(retried)).toEqual(outcomeOf(first));
    expect(await store.readStream(`${p}retried`)).toHaveLength(2);
  });

  it("keeps every part's data exactly as given: quotes, backslashes, braces, commas and other scripts", async () => {
    const p = prefix();
    const texts = ['he said "hi"', 'C:\\path\\to', '{a,b}', 'NULL', '', '记忆 ✓ \u00e9', '\\"quoted\\"', 'line\nbreak\ttab'];
    const events = texts.map((text) => newEvent('ContractNoted', { text, nested: { list: [text, 1, null, true] } }));
    const results = await Promise.all(events.map((event, i) => store.append(`${p}${i}`, [event], { expectedRevision: 'any' })));
    expect(new Set(commits(results)).size).toBeLessThan(texts.length);
    for (const [i, event] of events.entries()) {
      const [stored] = await store.readStream(`${p}${i}`);
      expect(stored).toMatchObject({ id: event.id, type: event.type, data: event.data, metadata: event.metadata });
      expect(results[i]!.written![0]!.data).toEqual(event.data);
    }
  });

  it('puts appends with `any` to one stream in one group, in the order made, and every event at its own revision', async () => {
    const p = prefix();
    const made = Array.from({ length: 10 }, () => newEvents(2));
    const results = await Promise.all(made.map((events) => store.append(`${p}same`, events, { expectedRevision: 'any' })));
    // Each append's events are consecutive and stored as given.
    const read = await store.readStream(`${p}same`);
    expect(read.map((event) => event.streamRevision)).toEqual([...Array(20).keys()]);
    for (const [i, events] of made.entries()) {
      expect(results[i]!.written!.map((event) => event.id)).toEqual(events.map((event) => event.id));
      const revisions = results[i]!.written!.map((event) => event.streamRevision);
      expect(revisions[1]).toBe(revisions[0]! + 1);
      expect(results[i]!.nextExpectedRevision).toBe(revisions[1]);
    }
    // Made at once, they share commits: alone, each would be its own.
    expect(new Set(commits(results)).size).toBeLessThan(10);
  });

  it('never puts two appends to one stream with an expected revision in one group: the second sees the first', async () => {
    const p = prefix();
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 5 }, () => store.append(`${p}same`, [newEvent()], { expectedRevision: 'no_stream' })),
      ...Array.from({ length: 5 }, () => store.append(`${p}counted`, [newEvent()], { expectedRevision: 'any' })),
    ]);
    // Exactly one `no_stream` append lands; the others see it and are refused.
    expect(outcomes.slice(0, 5).filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.slice(0, 5).filter((o) => o.status === 'rejected'))
      expect(outcome).toMatchObject({ reason: expect.any(WrongExpectedVersion) as unknown });
    expect(await store.readStream(`${p}same`)).toHaveLength(1);
    expect((await store.readStream(`${p}counted`)).map((event) => event.streamRevision)).toEqual([0, 1, 2, 3, 4]);
  });
});
