// The PostgreSQL adapter's global-log mechanism, made deterministic: a
// transaction that took its positions first but has not committed holds back
// everything after it, instead of being skipped. Plus the two ways a
// subscriber wakes up: NOTIFY, and polling when no notification comes.
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  comparePositions,
  type EventStore,
  type Position,
  type ReadAllOptions,
  type StoredEvent,
} from '../../src/infrastructure/event-store/port.js';
import { appendQuery } from '../../src/infrastructure/event-store/postgres/append.js';
import { READ_PAGE_SQL, readAllParams } from '../../src/infrastructure/event-store/postgres/log-order.js';
import { openPostgresEventStore, PostgresEventStore } from '../../src/infrastructure/event-store/postgres/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { newEvent, newEvents, reader } from './event-store-fixtures.js';

let database: TestDatabase;
let store: EventStore;
let raw: pg.Client;

beforeAll(async () => {
  database = await createTestDatabase('pg_log_order');
  store = await openPostgresEventStore(database.url, { pollIntervalMs: 50 });
  raw = new pg.Client({ connectionString: database.url });
  await raw.connect();
});
afterAll(async () => {
  await raw?.end();
  await store?.close();
  await database?.drop();
});

/** Reads the log after `after` until `count` events are there (other test files' transactions may hold it back a moment). */
async function readUntil(count: number, options: ReadAllOptions): Promise<StoredEvent[]> {
  for (;;) {
    const events = await store.readAll(options);
    if (events.length >= count) return events;
    await sleep(20);
  }
}

/** Runs the adapter's append statement inside a transaction the test controls. */
async function appendUncommitted(client: pg.Client, stream: string, count: number): Promise<string[]> {
  const events = newEvents(count);
  await client.query('begin');
  const { rows } = await client.query(appendQuery({ stream, events, expectedRevision: 'any' }));
  expect(rows).toHaveLength(count); // one row per event written
  return events.map((event) => event.id);
}

describe('PostgreSQL global log', () => {
  it('holds back events committed after an older transaction still in flight, then delivers both in order', async () => {
    const prefix = `order-${randomUUID()}-`;
    const filter = { streamPrefixes: [prefix] };
    const slow = await appendUncommitted(raw, `${prefix}slow`, 3);
    const fast = newEvents(2);
    const fastResult = await store.append(`${prefix}fast`, fast, { expectedRevision: 'no_stream' });
    // The fast append committed, and its rows sit above the slow ones' insert positions...
    const { rows } = await raw.query<{ global_position: string }>('select global_position from events where stream_name = $1', [
      `${prefix}slow`,
    ]);
    expect(rows.every((row) => BigInt(row.global_position) < fastResult.position.prepare)).toBe(true);
    // ...but no reader may see it yet: the slow transaction could still commit below it.
    expect(await store.readAll({ filter })).toEqual([]);
    const head = await store.headPosition();
    expect(head === undefined || comparePositions(head, fastResult.position) < 0).toBe(true);
    expect((await store.readStream(`${prefix}fast`)).map((event) => event.id)).toEqual(fast.map((event) => event.id));

    const subscription = store.subscribeAll({ filter });
    await raw.query('commit');
    const received = await reader(subscription).take(5);
    await subscription.close();
    expect(received.map((event) => event.id)).toEqual([...slow, ...fast.map((event) => event.id)]);
    const log = await readUntil(5, { filter });
    expect(log).toEqual(received);
    for (let i = 1; i < log.length; i++) expect(comparePositions(log[i - 1]!.position, log[i]!.position)).toBe(-1);
  });

  it('a reader that checkpointed before the slow transaction committed still receives it', async () => {
    const prefix = `order-${randomUUID()}-`;
    const filter = { streamPrefixes: [prefix] };
    await store.append(`${prefix}first`, [newEvent()], { expectedRevision: 'no_stream' });
    const [checkpoint] = await readUntil(1, { filter });
    const slow = await appendUncommitted(raw, `${prefix}slow`, 2);
    await store.append(`${prefix}fast`, [newEvent()], { expectedRevision: 'no_stream' });
    expect(await store.readAll({ after: checkpoint!.position, filter })).toEqual([]);
    await raw.query('commit');
    const after = await readUntil(3, { after: checkpoint!.position, filter });
    expect(after.map((event) => event.stream)).toEqual([`${prefix}slow`, `${prefix}slow`, `${prefix}fast`]);
    expect(after.slice(0, 2).map((event) => event.id)).toEqual(slow);
  });

  it('a rolled-back append leaves no trace and blocks nothing', async () => {
    const prefix = `order-${randomUUID()}-`;
    await appendUncommitted(raw, `${prefix}gone`, 4);
    await store.append(`${prefix}kept`, [newEvent()], { expectedRevision: 'no_stream' });
    await raw.query('rollback');
    expect((await readUntil(1, { filter: { streamPrefixes: [prefix] } })).map((event) => event.stream)).toEqual([`${prefix}kept`]);
    expect(await store.readStream(`${prefix}gone`)).toEqual([]);
    await store.append(`${prefix}gone`, [newEvent()], { expectedRevision: 'no_stream' });
  });
});

describe('PostgreSQL page reads', () => {
  it('a page read finds the log head and what is pending down the log-order index, never by reading the whole log', async () => {
    // Every subscription and projection round reads a page; a plan that scans the table costs in proportion to the log.
    const prefix = `plan-${randomUUID()}-`;
    for (let i = 0; i < 20; i++) await store.append(`${prefix}${i}`, newEvents(100), { expectedRevision: 'no_stream' });
    await raw.query('analyze events');
    const head = await store.headPosition();
    const { rows } = await raw.query<{ 'QUERY PLAN': unknown }>(
      `explain (analyze, format json) ${READ_PAGE_SQL}`,
      readAllParams(head, { streamPrefixes: [prefix] }, 100),
    );
    const scans: { relation: string; rows: number }[] = [];
    const walk = (node: Record<string, unknown>) => {
      if (node['Node Type'] === 'Seq Scan')
        scans.push({
          relation: String(node['Relation Name']),
          rows: Number(node['Actual Rows']) + Number(node['Rows Removed by Filter'] ?? 0),
        });
      for (const child of (node.Plans as Record<string, unknown>[] | undefined) ?? []) walk(child);
    };
    walk((rows[0]!['QUERY PLAN'] as { Plan: Record<string, unknown> }[])[0]!.Plan);
    expect(scans.filter((scan) => scan.relation === 'events')).toEqual([]);
  });
});

describe('PostgreSQL subscription wakeups', () => {
  it('NOTIFY wakes a live subscriber whose poll interval is an hour', async () => {
    const sleepy = await openPostgresEventStore(database.url, { pollIntervalMs: 3_600_000, migrate: false });
    try {
      const prefix = `wake-${randomUUID()}-`;
      const subscription = sleepy.subscribeAll({ filter: { streamPrefixes: [prefix] } });
      const events = reader(subscription);
      const first = newEvent();
      await store.append(`${prefix}s`, [first], { expectedRevision: 'no_stream' });
      expect((await events.take(1))[0]!.id).toBe(first.id);
      const second = newEvent();
      const next = events.take(1);
      // Let it find nothing and settle into its hour-long wait; from there only
      // a notification can wake it (were it still reading, the test would
      // merely pass for the weaker reason).
      await sleep(200);
      await store.append(`${prefix}s`, [second], { expectedRevision: 0 });
      expect((await next)[0]!.id).toBe(second.id);
      await subscription.close();
    } finally {
      await sleepy.close();
    }
  });

  it('a subscriber woken for an event held back by an older transaction reads it when that transaction ends right after the read', async () => {
    // The race, made deterministic: the wakeup's read finds the event held
    // back (an older transaction is open), and that transaction ends just as
    // the read returns. Whether to look again soon must be judged at the
    // horizon the read used, not afterwards (when nothing is pending any more).
    const pool = new ReadHookPool({ connectionString: database.url, max: 2 });
    const sleepy = new PostgresEventStore(pool, { signalConnection: { connectionString: database.url }, pollIntervalMs: 3_600_000 });
    const blocker = new pg.Client({ connectionString: database.url });
    await blocker.connect();
    try {
      const prefix = `horizon-${randomUUID()}-`;
      const events = reader(sleepy.subscribeAll({ filter: { streamPrefixes: [prefix] } }));
      const next = events.take(1);
      await sleep(200); // settled into its hour-long wait
      await blocker.query('begin');
      await blocker.query('select pg_current_xact_id()'); // holds an xid below the append's: the append stays hidden
      const event = newEvent();
      await store.append(`${prefix}s`, [event], { expectedRevision: 'no_stream' });
      // The next query the subscriber starts (the wakeup's read) ends the blocker before it returns.
      pool.afterNextQuery = async () => {
        await blocker.query('commit');
      };
      const delivered = await Promise.race([next, sleep(10_000).then(() => 'still asleep after 10 s')]);
      expect(typeof delivered === 'string' ? delivered : delivered[0]!.id).toBe(event.id);
    } finally {
      await blocker.end();
      await sleepy.close();
    }
  });

  it('a filtered subscriber reads on from the head it examined, not again from its last match', async () => {
    // Every append wakes it: before, each wakeup read the whole log after its last match (from the start, while
    // nothing had matched), so its cost grew with the log.
    const pool = new PageRecordingPool({ connectionString: database.url, max: 2 });
    const own = new PostgresEventStore(pool, { signalConnection: { connectionString: database.url }, pollIntervalMs: 3_600_000 });
    try {
      const prefix = `examined-${randomUUID()}-`;
      const events = reader(own.subscribeAll({ filter: { streamPrefixes: [`${prefix}wanted`] } }));
      const next = events.take(1);
      // Closed early by a failed expectation, it would reject with no one waiting.
      next.catch(() => undefined);
      const other = await store.append(`${prefix}other`, newEvents(20), { expectedRevision: 'no_stream' });
      await readUntil(1, { after: { commit: other.position.commit, prepare: other.position.prepare - 1n } });
      // Woken by a later append, it reads on from at or past the other stream's last event. (A read it had
      // scheduled itself may come first: while an older transaction elsewhere on the shared server held the log's
      // horizon back, it had examined less; with the old behaviour every read started at the log's start.)
      const before = pool.pageReads.length;
      await store.append(`${prefix}other`, newEvents(1), { expectedRevision: other.nextExpectedRevision });
      const readPast = () => pool.pageReads.slice(before).some((read) => comparePositions(read, other.position) >= 0);
      for (let i = 0; i < 500 && !readPast(); i++) await sleep(10);
      expect(pool.pageReads.slice(before).at(-1)).toBeDefined();
      expect(readPast()).toBe(true);
      // And still delivers what matches.
      const wanted = newEvent();
      await store.append(`${prefix}wanted`, [wanted], { expectedRevision: 'no_stream' });
      const delivered = await Promise.race([next, sleep(10_000).then(() => 'nothing after 10 s')]);
      expect(typeof delivered === 'string' ? delivered : delivered[0]!.id).toBe(wanted.id);
    } finally {
      await own.close();
    }
  });

  it('a filtered subscriber sleeps through wakeups for streams of other categories, and wakes for its own', async () => {
    // Each NOTIFY names the categories appended (`quiet…-`, `noisy…-`): recall records woke every projector.
    const pool = new PageRecordingPool({ connectionString: database.url, max: 2 });
    const own = new PostgresEventStore(pool, { signalConnection: { connectionString: database.url }, pollIntervalMs: 3_600_000 });
    try {
      const tag = randomUUID().replaceAll('-', '');
      const events = reader(own.subscribeAll({ filter: { streamPrefixes: [`quiet${tag}-`] } }));
      const next = events.take(1);
      await sleep(200); // its first read done, settled into its hour-long wait
      const before = pool.pageReads.length;
      for (let i = 0; i < 5; i++) {
        await store.append(`noisy${tag}-${i}`, newEvents(2), { expectedRevision: 'no_stream' });
        await sleep(40); // apart: five NOTIFYs, not one coalesced
      }
      await sleep(300);
      expect(pool.pageReads.length).toBe(before);
      const wanted = newEvent();
      await store.append(`quiet${tag}-s`, [wanted], { expectedRevision: 'no_stream' });
      const delivered = await Promise.race([next, sleep(10_000).then(() => 'still asleep after 10 s')]);
      expect(typeof delivered === 'string' ? delivered : delivered[0]!.id).toBe(wanted.id);
    } finally {
      await own.close();
    }
  });

  it('polling finds events that arrive without a notification', async () => {
    const prefix = `poll-${randomUUID()}-`;
    const subscription = store.subscribeAll({ filter: { streamPrefixes: [prefix] } });
    const events = reader(subscription);
    const next = events.take(1);
    // Written behind the adapter's back: nobody sends a NOTIFY.
    const [id] = await appendUncommitted(raw, `${prefix}s`, 1);
    await raw.query('commit');
    expect((await next)[0]!.id).toBe(id);
    await subscription.close();
  });

  it('closing the store ends the iteration of its open subscriptions', async () => {
    const own = await openPostgresEventStore(database.url, { migrate: false });
    const subscription = own.subscribeAll({ filter: { streamPrefixes: [`closing-${randomUUID()}`] } });
    const waiting = reader(subscription).next();
    await own.close();
    expect(await waiting).toEqual({ done: true, value: undefined });
  });
});

/** A pool that runs a callback after the next query it starts, before handing back that query's result. */
class ReadHookPool extends pg.Pool {
  afterNextQuery: (() => Promise<void>) | undefined;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's query() has a dozen overloads
  override query(...args: any[]): any {
    const hook = this.afterNextQuery;
    this.afterNextQuery = undefined;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any
    const result = (super.query as (...a: any[]) => Promise<unknown>)(...args);
    return hook ? result.then(async (value) => (await hook(), value)) : result;
  }
}

/** A pool that notes where each subscription page read starts (its `after`). */
class PageRecordingPool extends pg.Pool {
  readonly pageReads: Position[] = [];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pg's query() has a dozen overloads
  override query(...args: any[]): any {
    const config = args[0] as { name?: string; values?: string[] };
    if (config?.name === 'event_store_read_page' && config.values)
      this.pageReads.push({ commit: BigInt(config.values[0]!), prepare: BigInt(config.values[1]!) });
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument, @typescript-eslint/no-explicit-any
    return (super.query as (...a: any[]) => unknown)(...args);
  }
}
