// The recall records every recall appends (issue 20) are read by no read
// model: the runtime reads only the streams a projection names, so it never
// fetches nor parses them, and its checkpoint moves past them in one
// statement (catch-up, rebuild) or, for a follower, at most once per
// passedOverEveryMs (reported in process at once). Another process that
// waits for the follower sees that nothing up to the head is left to apply,
// without waiting for that write. A page with one event a projection reads
// is applied as before, and the rows are the same either way.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recallStreamName } from '../../src/domain/events/stream-names.js';
import type { EventStore, Position, StoredEvent } from '../../src/infrastructure/event-store/port.js';
import { comparePositions } from '../../src/infrastructure/event-store/port.js';
import { PROJECTIONS } from '../../src/projections/index.js';
import { applyUntil, type BatchProgress } from '../../src/projections/runtime/apply-loop.js';
import { catchUpProjection } from '../../src/projections/runtime/catch-up.js';
import { followProjection } from '../../src/projections/runtime/follow.js';
import { tryOwn } from '../../src/projections/runtime/ownership.js';
import type { ProjectionsKysely } from '../../src/projections/runtime/schema-handles.js';
import { activeSchema, readCheckpoint } from '../../src/projections/runtime/registry.js';
import { digestSchema } from './support/digest.js';
import { openProjectionWorld, type ProjectionWorld } from './support/projection-fixture.js';
import { appendChunk, Workload } from './support/workload.js';

let world: ProjectionWorld;
let workload: Workload;

beforeAll(async () => {
  world = await openProjectionWorld('proj_recall_pass');
  workload = new Workload({ subjects: 4, seed: 20 });
  const last = await appendChunk(world.store, workload.chunk(200));
  for (const definition of PROJECTIONS) await catchUpProjection(world.db, world.store, definition, { until: last! });
});
afterAll(async () => world?.close());

/** Appends `n` recall records (what no read model reads) and returns the last one's position. */
async function appendRecallRecords(n: number): Promise<Position> {
  let last: Position | undefined;
  for (let i = 0; i < n; i++) {
    const appended = await world.store.append(
      recallStreamName('acme', `recaller-${i % 3}`),
      [{ id: randomUUID(), type: 'RecallServed', data: { note: 'not read by any projection' }, metadata: { schemaVersion: 1 } }],
      { expectedRevision: 'any' },
    );
    last = appended.position;
  }
  return last!;
}

/** The projections database with every statement Kysely sends counted. */
function counting(db: ProjectionsKysely): { db: ProjectionsKysely; statements: () => number; kinds: () => string[] } {
  const kinds: string[] = [];
  return {
    db: db.withPlugin({
      transformQuery: (args) => {
        kinds.push(args.node.kind);
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    }),
    statements: () => kinds.length,
    kinds: () => [...kinds],
  };
}

/** The store, with every event its log reads hand out kept. */
function watched(store: EventStore): { store: EventStore; delivered: StoredEvent[] } {
  const delivered: StoredEvent[] = [];
  return {
    delivered,
    store: {
      ...store,
      append: (...args) => store.append(...args),
      readStream: (...args) => store.readStream(...args),
      readAll: async (options) => {
        const events = await store.readAll(options);
        delivered.push(...events);
        return events;
      },
      readPage: async (options) => {
        const page = await store.readPage(options);
        delivered.push(...page.events);
        return page;
      },
      headPosition: () => store.headPosition(),
      awaitCommitted: (options) => store.awaitCommitted(options),
      subscribeAll: (options) => store.subscribeAll(options),
      close: () => store.close(),
    },
  };
}

const isRecall = (event: StoredEvent) => event.stream.startsWith(recallStreamName('acme', ''));

describe('events of streams a read model does not read', () => {
  it.each(PROJECTIONS.map((p) => [p.name, p] as const))(
    '%s: never fetched; one statement moves the checkpoint past them, the rows unchanged',
    async (_name, definition) => {
      const schema = (await activeSchema(world.db, definition.name))!.schema_name;
      const before = { checkpoint: await readCheckpoint(world.db, schema), rows: await digestSchema(world.db, schema) };
      const last = await appendRecallRecords(5);
      const counted = counting(world.db);
      const log = watched(world.store);
      const rounds: BatchProgress[] = [];
      const result = await applyUntil(counted.db, log.store, definition, schema, {
        batchSize: 2000,
        until: last,
        untilWaitMs: 10_000,
        onBatch: (progress) => void rounds.push(progress),
      });
      expect(result.checkpoint).toEqual(last);
      expect(log.delivered.filter(isRecall)).toEqual([]);
      // readCheckpoint at the start, then one update per round (a transaction would add the schema row, a savepoint
      // and its release). One round unless transactions elsewhere on the server held the log's readable horizon
      // below `last` for a moment (parallel test files), and then each round moved the checkpoint further.
      expect(rounds.length).toBeGreaterThanOrEqual(1);
      expect(counted.kinds()).toEqual(['SelectQueryNode', ...rounds.map(() => 'RawNode')]); // the raw one is advanceCheckpoint's update
      const after = await readCheckpoint(world.db, schema);
      expect(after.position).toEqual(last);
      // Nothing applied, nothing counted as seen.
      expect(result.applied).toBe(0);
      expect(after.eventsSeen).toBe(before.checkpoint.eventsSeen);
      expect(await digestSchema(world.db, schema)).toEqual(before.rows);
    },
  );

  it('a run that defers the write reports the progress and leaves the checkpoint row behind', async () => {
    const definition = PROJECTIONS[0]!;
    const schema = (await activeSchema(world.db, definition.name))!.schema_name;
    const before = await readCheckpoint(world.db, schema);
    const last = await appendRecallRecords(3);
    const counted = counting(world.db);
    const reports: BatchProgress[] = [];
    const result = await applyUntil(counted.db, world.store, definition, schema, {
      batchSize: 2000,
      until: last,
      untilWaitMs: 10_000,
      deferPassedOver: true,
      onBatch: (progress) => void reports.push(progress),
    });
    expect(result.checkpoint).toEqual(last);
    expect(result.written).toEqual(before.position);
    expect(reports.at(-1)?.checkpoint).toEqual(last);
    expect(counted.statements()).toBe(1);
    expect((await readCheckpoint(world.db, schema)).position).toEqual(before.position);
  });

  it('a follower writes its passage within passedOverEveryMs; meanwhile a catch-up elsewhere finds nothing left to apply', async () => {
    const definition = PROJECTIONS[1]!;
    const schema = (await activeSchema(world.db, definition.name))!.schema_name;
    await catchUpProjection(world.db, world.store, definition);
    const stop = new AbortController();
    const reports: BatchProgress[] = [];
    const following = followProjection(world.db, world.store, definition, {
      signal: stop.signal,
      idleMs: 60_000,
      passedOverEveryMs: 1500,
      onBatch: (progress) => void reports.push(progress),
    });
    try {
      const last = await appendRecallRecords(4);
      // Reported in process within the interval (plus a round).
      for (let i = 0; i < 500 && !reports.some((r) => comparePositions(r.checkpoint, last) >= 0); i++) await sleep(10);
      expect(reports.some((r) => comparePositions(r.checkpoint, last) >= 0)).toBe(true);
      // While the row is behind, another process's catch-up waits for nothing: up to the head, nothing is left to apply.
      const row = await readCheckpoint(world.db, schema);
      // Until the last record: the log's visible head may trail it while transactions elsewhere on the server run.
      const other = await catchUpProjection(world.db, world.store, definition, { until: last, waitMs: 5000 });
      expect(other.appliedBy).toBe('another projector');
      if (row.position && comparePositions(row.position, last) < 0) expect(other.checkpoint).toBe(`${last.commit}/${last.prepare}`);
      // Written within the interval (plus a round), not at the 60 s idle wake.
      for (let i = 0; i < 500; i++) {
        const written = (await readCheckpoint(world.db, schema)).position;
        if (written && comparePositions(written, last) >= 0) break;
        await sleep(10);
      }
      expect(comparePositions((await readCheckpoint(world.db, schema)).position!, last)).toBeGreaterThanOrEqual(0);
    } finally {
      stop.abort();
      await following;
    }
  });

  it('a follower is not woken by them: it reads nothing until an event of its streams comes', async () => {
    // Each recall's record used to wake every projector for a round (its head read, a page read).
    const definition = PROJECTIONS[2]!;
    await catchUpProjection(world.db, world.store, definition);
    let reads = 0;
    const store = world.store;
    const log: EventStore = {
      append: (...args) => store.append(...args),
      readStream: (...args) => store.readStream(...args),
      readAll: (...args) => store.readAll(...args),
      readPage: (options) => ((reads += 1), store.readPage(options)),
      countAll: (options) => store.countAll(options),
      headPosition: () => ((reads += 1), store.headPosition()),
      awaitCommitted: (options) => store.awaitCommitted(options),
      subscribeAll: (options) => store.subscribeAll(options),
      close: () => store.close(),
    };
    const stop = new AbortController();
    const reports: BatchProgress[] = [];
    const following = followProjection(world.db, log, definition, {
      signal: stop.signal,
      idleMs: 60_000,
      passedOverEveryMs: 60_000,
      onBatch: (progress) => void reports.push(progress),
    });
    try {
      await sleep(300); // its first round done, asleep
      const before = reads;
      for (let i = 0; i < 5; i++) {
        await appendRecallRecords(2);
        await sleep(40); // apart: five wakeups, not one coalesced
      }
      await sleep(300);
      expect(reads).toBe(before);
      const last = await appendChunk(world.store, workload.chunk(3));
      for (let i = 0; i < 1000 && !reports.some((r) => comparePositions(r.checkpoint, last!) >= 0); i++) await sleep(10);
      expect(reports.some((r) => comparePositions(r.checkpoint, last!) >= 0 && r.applied > 0)).toBe(true);
    } finally {
      stop.abort();
      await following;
    }
  });

  it('a catch-up that waits for another owner does not wait for it to pass over events it does not read', async () => {
    const definition = PROJECTIONS[2]!;
    const schema = (await activeSchema(world.db, definition.name))!.schema_name;
    await catchUpProjection(world.db, world.store, definition);
    const last = await appendRecallRecords(2);
    // This test holds the schema (as a follower would) and never moves its checkpoint.
    const held = await tryOwn(world.db, schema, async () =>
      catchUpProjection(world.db, world.store, definition, { until: last, waitMs: 5000 }),
    );
    expect(held.owned).toBe(true);
    if (!held.owned) return;
    expect(held.value).toMatchObject({ appliedBy: 'another projector', checkpoint: `${last.commit}/${last.prepare}` });
  });

  it('a page with an event a read model reads is applied as before', async () => {
    await appendRecallRecords(2);
    const last = await appendChunk(world.store, workload.chunk(20));
    for (const definition of PROJECTIONS) {
      const schema = (await activeSchema(world.db, definition.name))!.schema_name;
      const counted = counting(world.db);
      const result = await applyUntil(counted.db, world.store, definition, schema, { batchSize: 2000, until: last!, untilWaitMs: 10_000 });
      expect(result.checkpoint).toEqual(last);
      expect(counted.statements()).toBeGreaterThan(2);
    }
  });
});
