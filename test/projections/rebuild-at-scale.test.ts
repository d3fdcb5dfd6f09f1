// A rebuild on modest data: 50,000 recorded memories over 10 subjects, then
// a consolidation of each subject over all of its 5,000 entries — 50,000
// lineage edges, all in one batch of the rebuild (x 11 columns, far past
// PostgreSQL's 65,535 bind parameters when rows went as VALUES lists). And a
// rebuild that fails drops its building schema and says so, while the active
// schema goes on serving.
import { createHash, randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputRoot } from '../../src/domain/canonical/input-root.js';
import type { SealedEntry } from '../../src/domain/entry/sealed-entry.js';
import { CURRENT_SCHEMA_VERSIONS, type DomainEvent } from '../../src/domain/events/catalog.js';
import type { Manifest } from '../../src/domain/events/manifest.js';
import { artifactStreamName, subjectStreamName } from '../../src/domain/events/stream-names.js';
import { decide } from '../../src/domain/subject/decide.js';
import { evolve } from '../../src/domain/subject/evolve.js';
import { activeEntries, initialState, type SubjectState } from '../../src/domain/subject/state.js';
import type { NewEvent, Position } from '../../src/infrastructure/event-store/port.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { RebuildFailed } from '../../src/projections/runtime/errors.js';
import { activeSchema, schemasOf } from '../../src/projections/runtime/registry.js';
import { rebuildProjection } from '../../src/projections/runtime/rebuild.js';
import { ensureActive } from '../../src/projections/runtime/schemas.js';
import { openProjectionWorld, type ProjectionWorld } from './support/projection-fixture.js';
import { appendChunk, type Append } from './support/workload.js';
import { legacyRecordOf } from '../support/legacy-record.js';

const SUBJECTS = 10;
const PER_SUBJECT = 5000;
const hex = (text: string) => createHash('sha256').update(text).digest('hex');
const sealed = (n: number) => ({
  alg: 'A256GCM' as const,
  keyId: 'key-acme',
  iv: Buffer.alloc(12, n % 256).toString('base64'),
  ct: hex(`${n}`),
});

function toNew(events: readonly DomainEvent[]): NewEvent[] {
  return events.map((event) => ({
    id: randomUUID(),
    type: event.type,
    data: event.data,
    metadata: { schemaVersion: CURRENT_SCHEMA_VERSIONS[event.type] },
  }));
}

/** The log, built through the real decider, one append per stream (the zod round trip skipped, as in workload.ts). */
function buildLog(): { records: Append[]; artifacts: Append[]; switches: Append[] } {
  const records: Append[] = [];
  const artifacts: Append[] = [];
  const switches: Append[] = [];
  for (let s = 0; s < SUBJECTS; s++) {
    const stream = subjectStreamName('acme', `s-${s}`);
    let state: SubjectState = initialState();
    const now = (i: number) => new Date(Date.parse('2026-01-01T00:00:00Z') + i * 1000).toISOString();
    const recorded: DomainEvent[] = [];
    for (let i = 1; i <= PER_SUBJECT; i++) {
      const entry: SealedEntry = {
        kind: 'semantic',
        key: `fact.k${i}`,
        valueType: 'text',
        valueHash: hex(`${s}/${i}`),
        value: sealed(i),
        polarity: 'affirmed',
        source: { type: 'user_assertion', refs: [`msg://import/${i}`] },
        sensitivity: 'normal',
        scopes: {},
      };
      const decided = decide(state, { type: 'RecordMemory', memoryId: `m-${s}-${i}`, conflictId: `c-${s}-${i}`, entry, now: now(i) });
      if (!decided.ok) throw new Error(decided.rejection.message);
      for (const event of decided.events) state = evolve(state, event);
      recorded.push(...decided.events);
    }
    records.push({ stream, expectedRevision: 'no_stream', events: toNew(recorded) });
    const revision = recorded.length - 1;
    const inputs = activeEntries(state).map((e) => ({ memoryId: e.memoryId, sequence: e.sequence, valueHash: e.valueHash }));
    const manifest: Manifest = {
      artifactId: `a-acme-${s}`,
      tenant: 'acme',
      subject: `s-${s}`,
      newCoversThrough: state.highWaterMark,
      inputEpoch: state.inputEpoch,
      expectedAlias: null,
      inputs,
      inputRoot: inputRoot(inputs),
      conflictIds: [],
      parentArtifactId: null,
      selectorVersion: 'sel-1',
      promptVersion: 'p-1',
      modelSnapshot: 'deterministic-1',
    };
    const at = now(PER_SUBJECT + 1);
    artifacts.push({
      stream: artifactStreamName(manifest.artifactId),
      expectedRevision: 'no_stream',
      events: toNew([
        {
          type: 'ArtifactGenerated',
          data: {
            artifactId: manifest.artifactId,
            manifest,
            output: sealed(0),
            outputHash: hex(manifest.artifactId),
            record: legacyRecordOf(manifest),
            generatedAt: at,
          },
        },
        { type: 'GatePassed', data: { artifactId: manifest.artifactId, mustPreserveCount: 0, checkedAt: at } },
      ]),
    });
    const switched = decide(state, { type: 'SwitchSummaryAlias', manifest, now: at });
    if (!switched.ok) throw new Error(switched.rejection.message);
    switches.push({ stream, expectedRevision: revision, events: toNew(switched.events) });
  }
  return { records, artifacts, switches };
}

describe('a rebuild of 50,000 events with 50,000 lineage edges', () => {
  let world: ProjectionWorld;
  let last: Position | undefined;

  beforeAll(async () => {
    world = await openProjectionWorld('proj_scale');
    const { records, artifacts, switches } = buildLog();
    await appendChunk(world.store, records);
    // The consolidations last and together: one batch of the rebuild meets every edge.
    await appendChunk(world.store, artifacts);
    last = await appendChunk(world.store, switches);
    await ensureActive(world.db, memoryProjection);
  }, 300_000);

  afterAll(async () => world?.close());

  it('passes, with every version and every edge', async () => {
    const rebuilt = await rebuildProjection(world.db, world.store, memoryProjection, { batchSize: 5000, until: last! });
    expect(rebuilt.events).toBe(SUBJECTS * PER_SUBJECT + 3 * SUBJECTS);
    const count = async (table: string) =>
      (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${rebuilt.schema}.${table}`)}`.execute(world.db)).rows[0]!.n;
    expect(await count('memory_versions')).toBe(SUBJECTS * PER_SUBJECT);
    expect(await count('lineage_edges')).toBe(SUBJECTS * PER_SUBJECT);
    expect(await count('summary_alias')).toBe(SUBJECTS);
    expect(await count('faults')).toBe(0);
  }, 300_000);

  it('a rebuild that fails drops its building schema, says so, and leaves the active schema serving', async () => {
    const active = (await activeSchema(world.db, 'memory'))!;
    const admin = new pg.Client({ connectionString: world.database.url });
    await admin.connect();
    let cancelled: Promise<void> | undefined;
    try {
      const failing = rebuildProjection(world.db, world.store, memoryProjection, {
        batchSize: 5000,
        onBatch: async (progress) => {
          if (progress.applied !== 5000) return;
          // A real failure: the next batch waits on a lock, and the server cancels its statement (57014).
          await admin.query('begin');
          await admin.query(`lock table "${progress.schema}".subject_clock in access exclusive mode`);
          cancelled = cancelWaiter(admin);
        },
      });
      const error = await failing.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(RebuildFailed);
      const failed = error as RebuildFailed;
      expect(failed).toMatchObject({ code: 'rebuild_failed', dropped: true });
      expect(failed.message).toMatch(/building schema was dropped/);
      const schemas = await schemasOf(world.db, 'memory');
      expect(schemas.map((s) => [s.schema_name, s.state])).toEqual([[active.schema_name, 'active']]);
      const { rows } = await admin.query('select 1 from information_schema.schemata where schema_name = $1', [failed.schema]);
      expect(rows).toEqual([]);
    } finally {
      await cancelled;
      await admin.end();
    }
  }, 300_000);
});

/** Cancels the statement of the projections' session that waits on a lock, then lets the lock go. */
async function cancelWaiter(admin: pg.Client): Promise<void> {
  for (;;) {
    const { rows } = await admin.query<{ cancelled: boolean }>(
      `select pg_cancel_backend(pid) as cancelled from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'
          and application_name = 'memledger-projections'`,
    );
    if (rows.some((r) => r.cancelled)) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  await admin.query('rollback');
}
