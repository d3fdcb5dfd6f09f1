// A page of the log holding only events no read model reads (the recall
// records every recall appends: issue 20) is not applied: each projection's
// checkpoint moves past it in one statement, instead of a transaction with
// the schema check, a savepoint and the checkpoint (the projector did that
// twice per batch of recalls, once per read model). A page with one event a
// projection reads is applied as before, and the rows are the same either way.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recallStreamName } from '../../src/domain/events/stream-names.js';
import type { Position } from '../../src/infrastructure/event-store/port.js';
import { PROJECTIONS } from '../../src/projections/index.js';
import { applyUntil } from '../../src/projections/runtime/apply-loop.js';
import { catchUpProjection } from '../../src/projections/runtime/catch-up.js';
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
function counting(db: ProjectionsKysely): { db: ProjectionsKysely; statements: () => number } {
  let n = 0;
  return {
    db: db.withPlugin({
      transformQuery: (args) => {
        n += 1;
        return args.node;
      },
      transformResult: (args) => Promise.resolve(args.result),
    }),
    statements: () => n,
  };
}

describe('pages a read model does not read', () => {
  it.each(PROJECTIONS.map((p) => [p.name, p] as const))(
    '%s: one statement moves the checkpoint past them, the rows unchanged',
    async (_name, definition) => {
      const schema = (await activeSchema(world.db, definition.name))!.schema_name;
      const before = { checkpoint: await readCheckpoint(world.db, schema), rows: await digestSchema(world.db, schema) };
      const last = await appendRecallRecords(5);
      const counted = counting(world.db);
      const result = await applyUntil(counted.db, world.store, definition, schema, { batchSize: 2000, until: last, untilWaitMs: 10_000 });
      expect(result.checkpoint).toEqual(last);
      // readCheckpoint at the start, then the one update (a transaction would add the schema row, a savepoint and its release).
      expect(counted.statements()).toBe(2);
      const after = await readCheckpoint(world.db, schema);
      expect(after.position).toEqual(last);
      // Counted as seen (a read model that has not caught up since the previous case passes over those too).
      expect(result.applied).toBeGreaterThanOrEqual(5);
      expect(after.eventsSeen).toBe(before.checkpoint.eventsSeen + result.applied);
      expect(await digestSchema(world.db, schema)).toEqual(before.rows);
    },
  );

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
