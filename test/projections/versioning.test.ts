// Versioned projections: tables live in a schema per build; a projector
// refuses to run incrementally on tables another definition built; a rebuild
// fills a new schema from position 0 while the old one keeps serving, swaps
// them in one transaction, and drops the old one once nothing uses it.
import { sql, type Kysely } from 'kysely';
import type { Position } from '../../src/infrastructure/event-store/port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { memoryTables } from '../../src/projections/memory/ddl.js';
import { applyUntil } from '../../src/projections/runtime/apply-loop.js';
import { catchUpProjection } from '../../src/projections/runtime/catch-up.js';
import { identityOf } from '../../src/projections/runtime/definition-hash.js';
import { ProjectionRebuildRequired, ProjectionSchemaRetired, RebuildInProgress } from '../../src/projections/runtime/errors.js';
import { tryOwn } from '../../src/projections/runtime/ownership.js';
import type { ProjectionDefinition } from '../../src/projections/runtime/projection.js';
import { readActive } from '../../src/projections/runtime/read-active.js';
import { rebuildProjection } from '../../src/projections/runtime/rebuild.js';
import { activeSchema, schemaRow, schemasOf } from '../../src/projections/runtime/registry.js';
import { dropLeftovers } from '../../src/projections/runtime/schemas.js';
import { projectionStatus } from '../../src/projections/runtime/status.js';
import { digestSchema } from './support/digest.js';
import { openProjectionWorld, type ProjectionWorld } from './support/projection-fixture.js';
import { logShows } from './support/log-horizon.js';
import { appendChunk, Workload } from './support/workload.js';

/** The next version of the code (same DDL). */
const v2: ProjectionDefinition = { ...memoryProjection, version: memoryProjection.version + 1 };
/** Same version, one more index: a different definition hash. */
const reindexed: ProjectionDefinition = {
  ...memoryProjection,
  tables: (db, schema) => [
    ...memoryTables(db, schema),
    db.schema.withSchema(schema).createIndex('memory_versions_by_status').on('memory_versions').column('status'),
  ],
};

async function schemaExists(db: Kysely<any>, schema: string): Promise<boolean> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_namespace where nspname = ${schema}`.execute(db);
  return rows[0]!.n === 1;
}

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

describe('versioned projections', () => {
  let world: ProjectionWorld;
  let workload: Workload;
  /** The last position appended (the head of the log may lag behind it while older transactions run). */
  let last: Position | undefined;

  beforeAll(async () => {
    world = await openProjectionWorld('proj_versions');
    workload = new Workload({ subjects: 30, seed: 5 });
    last = await appendChunk(world.store, workload.chunk(3000));
    await catchUpProjection(world.db, world.store, memoryProjection, { until: last! });
  });
  afterAll(async () => world?.close());

  it('names each build v<version>_<hash8>_b<build> and hashes the table definitions', async () => {
    const active = (await activeSchema(world.db, 'memory'))!;
    const identity = identityOf(memoryProjection);
    expect(active.schema_name).toBe(`mlp_memory_v${memoryProjection.version}_${identity.definitionHash.slice(0, 8)}_b1`);
    expect(identityOf(reindexed).definitionHash).not.toBe(identity.definitionHash);
    expect(identityOf(v2).definitionHash).toBe(identity.definitionHash);
  });

  it('refuses to run incrementally on tables built by another version or another table definition, and says to rebuild', async () => {
    for (const other of [v2, reindexed]) {
      const refused = catchUpProjection(world.db, world.store, other);
      await expect(refused).rejects.toBeInstanceOf(ProjectionRebuildRequired);
      await expect(refused).rejects.toThrow(/projections rebuild/);
    }
    const status = await projectionStatus(world.db, world.store, v2);
    expect(status.active).toMatchObject({ version: memoryProjection.version, matchesCode: false });
    expect(status.code.version).toBe(v2.version);
  });

  it('rebuilds a new version while the old schema serves, swaps in one transaction, then drops the old', async () => {
    const old = (await activeSchema(world.db, 'memory'))!;
    const paused = gate();
    const resume = gate();
    const rebuilding = rebuildProjection(world.db, world.store, v2, {
      batchSize: 500,
      onBatch: async (p) => {
        if (p.applied !== 500) return;
        paused.open();
        await resume.wait;
      },
    });
    await paused.wait;
    // Mid-rebuild: the old schema is still the active one, and old code keeps it caught up with new appends.
    last = await appendChunk(world.store, workload.chunk(500));
    const during = await catchUpProjection(world.db, world.store, memoryProjection, { until: last! });
    expect(during.schema).toBe(old.schema_name);
    const building = (await schemasOf(world.db, 'memory')).find((s) => s.state === 'building');
    expect(building?.version).toBe(v2.version);
    await expect(rebuildProjection(world.db, world.store, v2)).rejects.toBeInstanceOf(RebuildInProgress);
    const beforeSwap = await digestSchema(world.db, old.schema_name);

    // A read in flight across the swap finishes on the old schema; the drop waits for it.
    const reading = gate();
    const swapped = gate();
    const read = readActive(world.db, 'memory', async (tables: Kysely<any>, schema) => {
      reading.open();
      await swapped.wait;
      const { n } = await tables
        .selectFrom('memory_versions')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return { schema: schema.schema_name, rows: Number(n) };
    });
    await reading.wait;
    await logShows(world.store, last!); // so the rebuild's last catch-up before the swap takes the 500 in
    resume.open(); // the rebuild finishes and swaps; its drop of the old schema waits for the read
    for (;;) {
      const active = await activeSchema(world.db, 'memory');
      if (active?.version === v2.version) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await schemaExists(world.db, old.schema_name)).toBe(true);
    swapped.open();
    expect(await read).toEqual({ schema: old.schema_name, rows: beforeSwap.memory_versions!.rows });
    const result = await rebuilding;

    expect(result.previous).toEqual({ schema: old.schema_name, version: memoryProjection.version, definitionHash: old.definition_hash });
    expect(result.version).toBe(v2.version);
    expect(result.dropped).toContain(old.schema_name);
    expect(await schemaExists(world.db, old.schema_name)).toBe(false);
    expect((await schemasOf(world.db, 'memory')).map((s) => [s.state, s.version])).toEqual([['active', v2.version]]);
    // The new version built the same rows from position 0; old code now refuses, new code runs.
    expect(await digestSchema(world.db, result.schema)).toEqual(beforeSwap);
    await expect(catchUpProjection(world.db, world.store, memoryProjection)).rejects.toBeInstanceOf(ProjectionRebuildRequired);
    last = await appendChunk(world.store, workload.chunk(200));
    const after = await catchUpProjection(world.db, world.store, v2, { until: last! });
    expect(after).toMatchObject({ schema: result.schema, version: v2.version, eventsSeen: workload.count });
  });

  it('stops a projector whose schema a rebuild retired, and drops the schema once it lets go', async () => {
    const old = (await activeSchema(world.db, 'memory'))!;
    const holding = gate();
    const released = gate();
    // A projector that owns the current schema through the swap.
    const projector = tryOwn(world.db, old.schema_name, async (conn) => {
      holding.open();
      await released.wait;
      const appended = (await appendChunk(world.store, workload.chunk(100)))!;
      return applyUntil(conn, world.store, v2, old.schema_name, { batchSize: 50, until: appended, untilWaitMs: 60_000 });
    });
    await holding.wait;
    const rebuilt = await rebuildProjection(world.db, world.store, v2);
    expect(rebuilt.dropped).not.toContain(old.schema_name);
    expect((await schemaRow(world.db, old.schema_name))?.state).toBe('retired');
    released.open();
    await expect(projector).rejects.toBeInstanceOf(ProjectionSchemaRetired);
    expect(await dropLeftovers(world.db, 'memory')).toEqual([old.schema_name]);
    expect(await schemaExists(world.db, old.schema_name)).toBe(false);
  });
});
