// What the PostgreSQL adapter promises beyond the shared contract: event ids
// are unique store-wide (a reused id is an IdempotencyConflict, never a second
// copy), bad input is refused with a typed error naming the field, and
// recordedAt is the stored commit time at millisecond precision.
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IdempotencyConflict, WrongExpectedVersion, type EventStore } from '../../src/infrastructure/event-store/port.js';
import { EventStoreClosed, InvalidEventStoreInput, openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { newEvent, newEvents, outcomeOf, rejectionOf } from './event-store-fixtures.js';

let database: TestDatabase;
let store: EventStore;
let raw: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('pg_adapter');
  store = await openPostgresEventStore(database.url);
  raw = new pg.Client({ connectionString: database.url });
  await raw.connect();
});
afterAll(async () => {
  await raw?.end();
  await store?.close();
  await database?.drop();
});

const stream = () => `adapter-${randomUUID()}`;
const eventCount = async () => Number((await raw.query<{ n: string }>('select count(*) as n from events')).rows[0]!.n);

describe('PostgreSQL adapter: reused event ids', () => {
  it('a batch stored only in part is an IdempotencyConflict and writes nothing', async () => {
    const s = stream();
    const batch = newEvents(3);
    await store.append(s, batch.slice(0, 2), { expectedRevision: 'no_stream' });
    const before = await eventCount();
    const error = await rejectionOf(store.append(s, batch, { expectedRevision: 'no_stream' }));
    // no_stream no longer holds either; the revision check comes first, as on EventStoreDB.
    expect(error).toBeInstanceOf(WrongExpectedVersion);
    const conflict = await rejectionOf(store.append(s, batch, { expectedRevision: 'any' }));
    expect(conflict).toBeInstanceOf(IdempotencyConflict);
    expect(conflict).toMatchObject({ stream: s, eventId: batch[0]!.id });
    expect(await eventCount()).toBe(before);
  });

  it('ids stored in another stream are an IdempotencyConflict', async () => {
    const [a, b] = [stream(), stream()];
    const batch = newEvents(2);
    await store.append(a, batch, { expectedRevision: 'no_stream' });
    const error = await rejectionOf(store.append(b, batch, { expectedRevision: 'no_stream' }));
    expect(error).toBeInstanceOf(IdempotencyConflict);
    expect(error).toMatchObject({ stream: b, eventId: batch[0]!.id });
    expect(await store.readStream(b)).toEqual([]);
  });

  it('ids stored in the same stream at other revisions are an IdempotencyConflict', async () => {
    const s = stream();
    const batch = newEvents(1);
    await store.append(s, batch, { expectedRevision: 'no_stream' });
    // Expecting revision 0 means "append at 1", but the event is stored at 0.
    const error = await rejectionOf(store.append(s, batch, { expectedRevision: 0 }));
    expect(error).toBeInstanceOf(IdempotencyConflict);
    expect(await store.readStream(s)).toHaveLength(1);
  });

  it('the same new batch raced into two streams lands in one; the other gets IdempotencyConflict', async () => {
    const [a, b] = [stream(), stream()];
    const batch = newEvents(20);
    const outcomes = await Promise.allSettled([a, b].map((s) => store.append(s, batch, { expectedRevision: 'any' })));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected')!;
    expect(failure.reason).toBeInstanceOf(IdempotencyConflict);
    expect((await store.readStream(a)).length + (await store.readStream(b)).length).toBe(20);
  });

  it('an append hands back the events it wrote, as a read returns them (the command loop folds them without reading)', async () => {
    const s = stream();
    const batch = newEvents(3);
    const result = await store.append(s, batch, { expectedRevision: 'no_stream' });
    expect(result.written).toEqual(await store.readStream(s));
    // A retry writes nothing, so it has nothing to hand back.
    expect((await store.append(s, batch, { expectedRevision: 'no_stream' })).written).toBeUndefined();
  });

  it('two racing retries of one batch both succeed with the same result', async () => {
    const s = stream();
    const batch = newEvents(5);
    const [first, second] = await Promise.all([0, 1].map(() => store.append(s, batch, { expectedRevision: 'no_stream' })));
    expect(outcomeOf(second!)).toEqual(outcomeOf(first!));
    expect(await store.readStream(s)).toHaveLength(5);
  });

  it('a retry with any is recognised at any age (the ids are unique store-wide, kept forever)', async () => {
    const s = stream();
    const batch = newEvents(2);
    const first = await store.append(s, batch, { expectedRevision: 'any' });
    await store.append(s, newEvents(3), { expectedRevision: 'any' });
    expect(outcomeOf(await store.append(s, batch, { expectedRevision: 'any' }))).toEqual(outcomeOf(first));
    expect(await store.readStream(s)).toHaveLength(5);
  });
});

describe('PostgreSQL adapter: bad input', () => {
  const cases: [string, string, () => Promise<unknown>][] = [
    ['an empty stream name', 'stream', () => store.append('', [newEvent()], { expectedRevision: 'any' })],
    ['an empty batch', 'events', () => store.append(stream(), [], { expectedRevision: 'any' })],
    [
      'an id that is not a UUID',
      'events.1.id',
      () => store.append(stream(), [newEvent(), { ...newEvent(), id: 'nope' }], { expectedRevision: 'any' }),
    ],
    ['an empty type', 'events.0.type', () => store.append(stream(), [{ ...newEvent(), type: '' }], { expectedRevision: 'any' })],
    [
      'data that is not JSON',
      'events.0.data',
      () => store.append(stream(), [{ ...newEvent(), data: undefined }], { expectedRevision: 'any' }),
    ],
    [
      'a schemaVersion that is not an integer',
      'events.0.metadata.schemaVersion',
      () => store.append(stream(), [{ ...newEvent(), metadata: { schemaVersion: 1.5 } }], { expectedRevision: 'any' }),
    ],
    [
      'an id twice in one batch',
      'events.1.id',
      () => {
        const event = newEvent();
        return store.append(stream(), [event, { ...newEvent(), id: event.id }], { expectedRevision: 'any' });
      },
    ],
    ['a negative expected revision', 'expectedRevision', () => store.append(stream(), [newEvent()], { expectedRevision: -1 })],
    [
      'an unknown expected revision',
      'expectedRevision',
      () => store.append(stream(), [newEvent()], { expectedRevision: 'latest' as never }),
    ],
    [
      'text PostgreSQL cannot store',
      'events',
      () => store.append(stream(), [newEvent('ContractNoted', { text: 'a\u0000b' })], { expectedRevision: 'any' }),
    ],
    ['a maxCount of 0', 'maxCount', () => store.readStream(stream(), { maxCount: 0 })],
    ['a negative fromRevision', 'fromRevision', () => store.readStream(stream(), { fromRevision: -2 })],
    ['an unknown direction', 'direction', () => store.readStream(stream(), { direction: 'sideways' as never })],
    ['a position that is not bigints', 'after.commit', () => store.readAll({ after: { commit: 1, prepare: 2 } as never })],
    ['an empty stream prefix', 'filter.streamPrefixes.0', () => store.readAll({ filter: { streamPrefixes: [''] } })],
  ];
  for (const [what, field, call] of cases) {
    it(`${what}: InvalidEventStoreInput on ${field}, nothing written`, async () => {
      const before = await eventCount();
      const error = await rejectionOf(call());
      expect(error).toBeInstanceOf(InvalidEventStoreInput);
      expect(error).toMatchObject({ field });
      expect(await eventCount()).toBe(before);
    });
  }

  it('a closed store refuses calls with EventStoreClosed', async () => {
    const own = await openPostgresEventStore(database.url, { migrate: false });
    await own.close();
    expect(await rejectionOf(own.readStream(stream()))).toBeInstanceOf(EventStoreClosed);
  });
});

describe('PostgreSQL adapter: recordedAt', () => {
  it('is the commit time at millisecond precision, shared by a batch, and "as of" it includes the event', async () => {
    const s = stream();
    const truncatedNow = async () =>
      new Date((await raw.query<{ t: Date }>(`select date_trunc('milliseconds', clock_timestamp()) as t`)).rows[0]!.t);
    const before = await truncatedNow();
    await store.append(s, newEvents(3), { expectedRevision: 'no_stream' });
    const after = await truncatedNow();
    await store.append(s, newEvents(1), { expectedRevision: 2 });
    const events = await store.readStream(s);
    const [first] = events;
    expect(first!.recordedAt.getTime()).toBeGreaterThanOrEqual(before.getTime());
    expect(first!.recordedAt.getTime()).toBeLessThanOrEqual(after.getTime());
    expect(new Set(events.slice(0, 3).map((e) => e.recordedAt.getTime())).size).toBe(1);
    expect(events[3]!.recordedAt.getTime()).toBeGreaterThanOrEqual(first!.recordedAt.getTime());
    const { rows } = await raw.query<{ id: string }>(
      'select event_id as id from events where stream_name = $1 and recorded_at <= $2 and recorded_at = date_trunc($3, recorded_at)',
      [s, first!.recordedAt, 'milliseconds'],
    );
    // The batch, and the next append only when it landed in the same millisecond (recordedAt never goes back: equal is allowed).
    const asOf = events.filter((e) => e.recordedAt.getTime() <= first!.recordedAt.getTime()).map((e) => e.id);
    expect(asOf.slice(0, 3)).toEqual(events.slice(0, 3).map((e) => e.id));
    expect(rows.map((row) => row.id)).toEqual(asOf);
  });
});
