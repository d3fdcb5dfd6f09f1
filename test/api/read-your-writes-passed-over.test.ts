// Read your writes while the projectors sleep through recall records
// (follow.ts wakes only for events of a projection's streams): a reader
// waiting for the log's head, or for a position, that only such events lie
// before learns in one short read per projection that nothing is left to
// apply, instead of waiting for a projector's report that would not come
// before its next round.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadYourWrites } from '../../src/api/service/read-your-writes.js';
import { recallStreamName } from '../../src/domain/events/stream-names.js';
import { comparePositions, type Position } from '../../src/infrastructure/event-store/port.js';
import { catchUpProjection, followProjection, PROJECTIONS } from '../../src/projections/index.js';
import type { BatchProgress } from '../../src/projections/runtime/apply-loop.js';
import { openProjectionWorld, type ProjectionWorld } from '../projections/support/projection-fixture.js';
import { appendChunk, Workload } from '../projections/support/workload.js';

let world: ProjectionWorld;
const workload = new Workload({ subjects: 2, seed: 7 });

beforeAll(async () => {
  world = await openProjectionWorld('ryw_passed_over');
  const last = await appendChunk(world.store, workload.chunk(20));
  for (const definition of PROJECTIONS) await catchUpProjection(world.db, world.store, definition, { until: last! });
});
afterAll(async () => world?.close());

async function appendRecallRecords(n: number): Promise<Position> {
  let last: Position | undefined;
  for (let i = 0; i < n; i++)
    last = (
      await world.store.append(
        recallStreamName('acme', 'recaller'),
        [{ id: randomUUID(), type: 'RecallServed', data: { note: 'read by no projection' }, metadata: { schemaVersion: 1 } }],
        { expectedRevision: 'any' },
      )
    ).position;
  return last!;
}

describe('read your writes past events no projection reads', () => {
  it('a wait for the head or a position returns without waiting for the sleeping projectors', async () => {
    // An hour's follower wait: were the wait for a projector's report, the race below would be lost.
    const freshness = new ReadYourWrites(world.store, world.db, PROJECTIONS, 3_600_000);
    const reported = new Set<string>();
    /** The last checkpoint each projector reported a batch applied at. */
    const applied = new Map<string, Position>();
    const stop = new AbortController();
    const following = PROJECTIONS.map((definition) =>
      followProjection(world.db, world.store, definition, {
        signal: stop.signal,
        idleMs: 60_000,
        passedOverEveryMs: 60_000,
        onBatch: (progress: BatchProgress) => {
          reported.add(progress.projection);
          if (progress.applied > 0) applied.set(progress.projection, progress.checkpoint);
          freshness.onBatch(progress);
        },
      }),
    );
    try {
      // Every projector reports once (an event each reads), then sleeps.
      const written = await appendChunk(world.store, workload.chunk(2));
      await freshness.awaitPosition(written!);
      expect(reported).toEqual(new Set(PROJECTIONS.map((p) => p.name)));
      const last = await appendRecallRecords(5);
      const outcome = await Promise.race([
        Promise.all([freshness.awaitHead(), freshness.awaitPosition(last)]).then(() => 'returned'),
        sleep(20_000).then(() => 'still waiting after 20 s'),
      ]);
      expect(outcome).toBe('returned');
      // And an event the projections read is still waited for: applied by each once the wait ends.
      const more = await appendChunk(world.store, workload.chunk(2));
      await freshness.awaitPosition(more!);
      for (const definition of PROJECTIONS) expect(comparePositions(applied.get(definition.name)!, more!)).toBeGreaterThanOrEqual(0);
    } finally {
      stop.abort();
      await Promise.all(following);
    }
  });
});
