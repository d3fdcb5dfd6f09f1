// The read models are projections of their own: each has its schema,
// version, checkpoint and rebuild, so rebuilding one (or changing its
// definition) leaves the others' checkpoints and rows as they were.
import type { Kysely } from 'kysely';
import type { Position } from '../../src/infrastructure/event-store/port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conflictsTrustProjection } from '../../src/projections/conflicts-trust/definition.js';
import { PROJECTIONS } from '../../src/projections/index.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { catchUpProjection } from '../../src/projections/runtime/catch-up.js';
import { ProjectionRebuildRequired } from '../../src/projections/runtime/errors.js';
import type { ProjectionDefinition } from '../../src/projections/runtime/projection.js';
import { rebuildProjection } from '../../src/projections/runtime/rebuild.js';
import { activeSchema, readCheckpoint } from '../../src/projections/runtime/registry.js';
import { digestSchema } from './support/digest.js';
import { openProjectionWorld, type ProjectionWorld } from './support/projection-fixture.js';
import { appendChunk, Workload } from './support/workload.js';

/** Where a read model stands: its active schema, its checkpoint row (time of the last write included) and a digest of its rows. */
async function standing(db: Kysely<any>, definition: ProjectionDefinition) {
  const active = (await activeSchema(db, definition.name))!;
  return {
    schema: active.schema_name,
    version: active.version,
    checkpoint: await readCheckpoint(db, active.schema_name),
    rows: await digestSchema(db, active.schema_name),
  };
}

describe('read models, one projection each', () => {
  let world: ProjectionWorld;
  let workload: Workload;
  let last: Position | undefined;

  beforeAll(async () => {
    world = await openProjectionWorld('proj_models');
    workload = new Workload({ subjects: 40, seed: 14 });
    last = await appendChunk(world.store, workload.chunk(4000));
    for (const definition of PROJECTIONS) await catchUpProjection(world.db, world.store, definition, { until: last! });
  });
  afterAll(async () => world?.close());

  it('registers the memory and the conflicts-and-trust read models, each in a schema of its own', async () => {
    expect(PROJECTIONS.map((p) => p.name)).toEqual(['memory', 'conflicts_trust', 'candidates']);
    const memory = await standing(world.db, memoryProjection);
    const trust = await standing(world.db, conflictsTrustProjection);
    expect(memory.schema).not.toBe(trust.schema);
    expect(memory.checkpoint.position).toEqual(trust.checkpoint.position);
    expect(trust.rows.conflicts!.rows).toBeGreaterThan(0);
    expect(trust.rows.trust_overrides!.rows).toBeGreaterThan(0);
    expect(memory.rows).not.toHaveProperty('conflicts');
  });

  it.each([
    [memoryProjection.name, memoryProjection, conflictsTrustProjection],
    [conflictsTrustProjection.name, conflictsTrustProjection, memoryProjection],
  ])('rebuilding %s leaves the other read model untouched', async (_name, rebuilt, other) => {
    const before = await standing(world.db, other);
    const own = await standing(world.db, rebuilt);
    const result = await rebuildProjection(world.db, world.store, rebuilt, { batchSize: 700, until: last! });
    expect(result.schema).not.toBe(own.schema);
    expect(await digestSchema(world.db, result.schema)).toEqual(own.rows);
    // Same schema, same checkpoint row (not even its updated_at moved), same rows.
    expect(await standing(world.db, other)).toEqual(before);
  });

  it('a new version of one read model asks for a rebuild of that one only', async () => {
    const next: ProjectionDefinition = { ...conflictsTrustProjection, version: conflictsTrustProjection.version + 1 };
    last = await appendChunk(world.store, workload.chunk(300));
    await expect(catchUpProjection(world.db, world.store, next)).rejects.toBeInstanceOf(ProjectionRebuildRequired);
    // The memory read model catches up as ever.
    const memory = await catchUpProjection(world.db, world.store, memoryProjection, { until: last! });
    expect(memory.applied).toBeGreaterThan(0);
    const before = await standing(world.db, memoryProjection);
    const result = await rebuildProjection(world.db, world.store, next, { until: last! });
    expect(result.version).toBe(next.version);
    expect((await activeSchema(world.db, conflictsTrustProjection.name))!.version).toBe(next.version);
    expect(await standing(world.db, memoryProjection)).toEqual(before);
  });
});
