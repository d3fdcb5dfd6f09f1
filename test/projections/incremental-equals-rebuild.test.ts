// DESIGN section 9, invariant 4: the tables built incrementally — in many
// small runs of random sizes, interleaved with appends — and the tables
// rebuilt from position 0 are identical row for row, on a generated workload
// of 50,000 events over 300 subjects (supersessions, retractions, conflicts
// and resolutions, trust and taint changes, expiries, erasures of memories
// and subjects, consolidations with parents several levels deep), with poison
// events here and there that the projection must pass over as faults, the
// same ones whatever the batch boundaries. It holds for every read model
// (PROJECTIONS), each with its own batch boundaries.
import { sql } from 'kysely';
import type { Position } from '../../src/infrastructure/event-store/port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTIONS } from '../../src/projections/index.js';
import { conflictsTrustProjection } from '../../src/projections/conflicts-trust/definition.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { applyUntil } from '../../src/projections/runtime/apply-loop.js';
import { catchUpProjection } from '../../src/projections/runtime/catch-up.js';
import { recordFaults } from '../../src/projections/runtime/faults.js';
import { applyIsolating } from '../../src/projections/runtime/isolating-apply.js';
import { tryOwn } from '../../src/projections/runtime/ownership.js';
import { rebuildProjection } from '../../src/projections/runtime/rebuild.js';
import { ensureActive } from '../../src/projections/runtime/schemas.js';
import { digestSchema, type Digest } from './support/digest.js';
import { eventsRead } from './support/events-read.js';
import { openProjectionWorld, random, type ProjectionWorld } from './support/projection-fixture.js';
import { appendChunk, Workload } from './support/workload.js';

const TOTAL_EVENTS = 50_000;

describe('the read models, incremental vs rebuilt', () => {
  let world: ProjectionWorld;
  let workload: Workload;
  /** Each read model's schema and digest, by name. */
  const schemas = new Map<string, string>();
  const incremental = new Map<string, Digest>();
  let schema: string;
  let trustSchema: string;
  let runs = 0;
  let last: Position | undefined;

  beforeAll(async () => {
    world = await openProjectionWorld('proj_equal');
    workload = new Workload({ subjects: 300, seed: 20260710, poisonPerMille: 0.6 });
    for (const definition of PROJECTIONS) schemas.set(definition.name, (await ensureActive(world.db, definition)).schema_name);
    schema = schemas.get(memoryProjection.name)!;
    trustSchema = schemas.get(conflictsTrustProjection.name)!;
    const rand = random(7);
    while (workload.count < TOTAL_EVENTS) {
      last = (await appendChunk(world.store, workload.chunk(2000 + rand(4000)))) ?? last;
      for (const definition of PROJECTIONS) {
        const own = schemas.get(definition.name)!;
        for (let k = 1 + rand(3); k > 0; k--) {
          const batchSize = rand(4) === 0 ? 10 + rand(100) : 200 + rand(2500);
          const owned = await tryOwn(world.db, own, (conn) =>
            applyUntil(conn, world.store, definition, own, { batchSize, maxEvents: 100 + rand(3000) }),
          );
          expect(owned.owned).toBe(true);
          runs += 1;
        }
      }
    }
    for (const definition of PROJECTIONS) {
      await catchUpProjection(world.db, world.store, definition, { batchSize: 700, until: last! });
      incremental.set(definition.name, await digestSchema(world.db, schemas.get(definition.name)!));
    }
  }, 600_000);

  afterAll(async () => world?.close());

  it('was built in many small runs from a workload that exercises every rule', async () => {
    expect(runs).toBeGreaterThanOrEqual(20 * PROJECTIONS.length);
    expect(workload.count).toBeGreaterThanOrEqual(TOTAL_EVENTS);
    const { rows: statuses } = await sql<{
      status: string;
      n: number;
    }>`select status, count(*)::int as n from ${sql.table(`${schema}.memory_versions`)} group by status`.execute(world.db);
    const byStatus = Object.fromEntries(statuses.map((r) => [r.status, r.n]));
    for (const status of ['active', 'superseded', 'retracted', 'expired', 'forgotten'])
      expect(byStatus[status] ?? 0, status).toBeGreaterThan(50);
    const countIn = async (where: string, from: string, filter = 'true') =>
      (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${where}.${from}`)} where ${sql.raw(filter)}`.execute(world.db))
        .rows[0]!.n;
    const count = (from: string, filter?: string) => countIn(schema, from, filter);
    expect(await countIn(trustSchema, 'conflicts', "status = 'resolved'")).toBeGreaterThan(50);
    expect(await countIn(trustSchema, 'conflicts', "status = 'open'")).toBeGreaterThan(50);
    expect(await countIn(trustSchema, 'trust_overrides')).toBeGreaterThan(50);
    expect(await countIn(trustSchema, 'subject_revisions')).toBe(await count('subject_clock'));
    expect(await count('memory_corroborations')).toBeGreaterThan(50);
    expect(await count('subject_clock', 'forgotten')).toBeGreaterThan(0);
    expect(await count('lineage_edges', "kind = 'artifact'")).toBeGreaterThan(50);
    expect(await count('stale_artifacts', 'via_artifact_id is not null')).toBeGreaterThan(20);
    expect(await count('stale_artifacts', 'via_artifact_id is null')).toBeGreaterThan(20);
    expect(await count('artifacts', "status = 'rejected'")).toBeGreaterThan(10);
    expect(await count('artifacts', 'output_erased')).toBeGreaterThan(0);
    expect(await count('artifacts')).toBeGreaterThan(await count('stale_artifacts'));
  });

  it('recorded exactly the poison events as faults, and applied everything after them', async () => {
    const faultsIn = async (where: string) => {
      const { rows } = await sql<{ event_id: string; code: string }>`select event_id, code from ${sql.table(`${where}.faults`)}`.execute(
        world.db,
      );
      return new Map(rows.map((r) => [r.event_id, r.code]));
    };
    const kinds = [...workload.poisoned.values()];
    expect(kinds.filter((k) => k === 'undecodable').length).toBeGreaterThanOrEqual(5);
    expect(kinds.filter((k) => k === 'refused_by_database').length).toBeGreaterThanOrEqual(5);
    expect(await faultsIn(schema)).toEqual(
      new Map([...workload.poisoned].map(([id, kind]) => [id, kind === 'undecodable' ? 'undecodable_event' : 'database_refused:22003'])),
    );
    // The memory rows the database refuses are not this read model's: only what does not decode is a fault here.
    expect(await faultsIn(trustSchema)).toEqual(
      new Map([...workload.poisoned].filter(([, kind]) => kind === 'undecodable').map(([id]) => [id, 'undecodable_event'])),
    );
  });

  it('agrees with the domain fold: H, inputEpoch and every memory status per subject', async () => {
    const states = workload.states();
    const clocks = await sql<{ subject: string; high_water_mark: number; input_epoch: number; forgotten: boolean }>`
      select subject, high_water_mark, input_epoch, forgotten from ${sql.table(`${schema}.subject_clock`)}`.execute(world.db);
    const current = await sql<{ subject: string; memory_id: string; status: string }>`
      select subject, memory_id, status from ${sql.table(`${schema}.memory_versions`)} where tx_to is null`.execute(world.db);
    const statusOf = new Map(current.rows.map((r) => [`${r.subject}/${r.memory_id}`, r.status]));
    let memories = 0;
    for (const clock of clocks.rows) {
      const state = states.get(clock.subject)!;
      expect({ H: clock.high_water_mark, epoch: clock.input_epoch, forgotten: clock.forgotten }, clock.subject).toEqual({
        H: state.highWaterMark,
        epoch: state.inputEpoch,
        forgotten: state.forgotten,
      });
      for (const entry of state.entries.values()) {
        expect(statusOf.get(`${clock.subject}/${entry.memoryId}`), entry.memoryId).toBe(entry.status);
        memories += 1;
      }
    }
    expect(memories).toBe(current.rows.length);
  });

  it('partitions system time per memory: one current version, each closed exactly where the next opens', async () => {
    const { rows } = await sql<{ broken: number }>`
      select count(*)::int as broken from (
        select tx_to, closed_by, tx_to_commit, tx_to_prepare,
               lead(tx_from) over w as next_from, lead(opened_by) over w as next_opened_by,
               lead(tx_from_commit) over w as next_commit, lead(tx_from_prepare) over w as next_prepare,
               lead(version) over w as next_version, version
          from ${sql.table(`${schema}.memory_versions`)}
        window w as (partition by tenant, subject, memory_id order by version)
      ) v
      where (next_version is null and tx_to is not null)
         or (next_version is not null and (next_version <> version + 1 or tx_to is distinct from next_from or closed_by is distinct from next_opened_by
             or tx_to_commit is distinct from next_commit or tx_to_prepare is distinct from next_prepare))`.execute(world.db);
    expect(rows[0]!.broken).toBe(0);
    const firsts = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(`${schema}.memory_versions`)} where version = 1`.execute(world.db);
    const current = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.table(`${schema}.memory_versions`)} where tx_to is null`.execute(world.db);
    expect(current.rows[0]!.n).toBe(firsts.rows[0]!.n);
  });

  it('keeps no ciphertext or keyed hash of an erased memory, in any version', async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(`${schema}.memory_versions`)} v
       where (value is not null or content is not null or value_hash is not null or content_hash is not null)
         and exists (select 1 from ${sql.table(`${schema}.memory_versions`)} f
                      where f.tenant = v.tenant and f.subject = v.subject and f.memory_id = v.memory_id and f.status = 'forgotten')`.execute(
      world.db,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it.each(PROJECTIONS.map((d) => [d.name, d] as const))(
    '%s: changes nothing when a batch is applied a second time',
    async (name, definition) => {
      const own = schemas.get(name)!;
      // Events from early in the log and from its end, in one batch, once more.
      const early = await world.store.readAll({ maxCount: 1500 });
      const late = (await world.store.readAll({ after: early[early.length - 1]!.position })).slice(-1500);
      await world.db
        .transaction()
        .execute(async (trx) => recordFaults(trx, own, await applyIsolating(trx, definition, own, [...early.slice(500), ...late])));
      expect(await digestSchema(world.db, own)).toEqual(incremental.get(name));
    },
  );

  it.each(PROJECTIONS.map((d) => [d.name, d] as const))(
    '%s: rebuilds from position 0 into a new schema with the very same rows',
    async (name, definition) => {
      const rebuilt = await rebuildProjection(world.db, world.store, definition, { batchSize: 5000, until: last! });
      expect(rebuilt.schema).not.toBe(schemas.get(name));
      // Only the events of its streams (conflicts_trust and candidates read no artifact stream).
      expect(rebuilt.events).toBe(await eventsRead(world.store, definition, last!));
      const digest = await digestSchema(world.db, rebuilt.schema);
      expect(Object.keys(digest).sort()).toEqual([...definition.tableNames, 'faults'].sort());
      expect(digest).toEqual(incremental.get(name));
    },
    300_000,
  );

  it('holds enough rows in each read model for the comparison to mean something', () => {
    expect(incremental.get(memoryProjection.name)!.memory_versions!.rows).toBeGreaterThan(25_000);
    expect(incremental.get(conflictsTrustProjection.name)!.conflicts!.rows).toBeGreaterThan(100);
  });
});
