// Rebuild throughput of the memory projection (and then of the
// conflicts_trust read model alone), in events/s, on a generated
// log (1,000,000 events by default; MEMLEDGER_BENCH_PROJECTION_EVENTS sets
// another count), against a raw baseline measured in the same run on the same
// server: multi-row INSERTs (1,000 rows a statement, 5,000 a transaction) of
// the very memory_versions rows the rebuild produced, into a table of the
// same definition. The rebuild does everything else too — reads and decodes
// every event, keeps the other tables, closes versions — so the goal is a
// ratio of at least 0.25 to the baseline.
import pg from 'pg';
import { sql } from 'kysely';
import { openPostgresEventStore } from '../src/infrastructure/event-store/postgres/open.js';
import { openProjectionDatabase } from '../src/projections/database.js';
import { memoryTables } from '../src/projections/memory/ddl.js';
import { conflictsTrustProjection } from '../src/projections/conflicts-trust/definition.js';
import { memoryProjection } from '../src/projections/memory/definition.js';
import { rebuildProjection } from '../src/projections/runtime/rebuild.js';
import type { ProjectionsKysely } from '../src/projections/runtime/schema-handles.js';
import { appendChunk, Workload } from '../test/projections/support/workload.js';
import type { Bench } from './run.js';

const DEFAULT_EVENTS = 1_000_000;
const BATCH_EVENTS = 5_000;
const ROWS_PER_STATEMENT = 1_000;
const ROWS_PER_TRANSACTION = 5_000;
const JSON_COLUMNS = new Set(['scopes', 'value', 'content', 'source_refs']);
const KEY = ['tenant', 'subject', 'memory_id', 'version'];

function eventCount(): number {
  const raw = process.env.MEMLEDGER_BENCH_PROJECTION_EVENTS;
  const n = raw === undefined ? DEFAULT_EVENTS : Number(raw);
  if (!Number.isInteger(n) || n < 1000) throw new Error('MEMLEDGER_BENCH_PROJECTION_EVENTS must be a whole number of at least 1000');
  return n;
}

const rate = (n: number, seconds: number) => Math.round(n / seconds).toLocaleString('en-US');

export const projectionRebuildBench: Bench = {
  name: 'projection-rebuild',
  async run({ databaseUrl, print }) {
    const target = eventCount();
    const store = await openPostgresEventStore(databaseUrl);
    const projections = await openProjectionDatabase(databaseUrl);
    try {
      const workload = new Workload({ subjects: Math.max(100, Math.round(target / 250)), seed: 1, consolidationsPerMille: 20 });
      const appendStarted = performance.now();
      let report = 100_000;
      while (workload.count < target) {
        await appendChunk(store, workload.chunk(Math.min(20_000, target - workload.count)));
        if (workload.count >= report) {
          print(
            `log: ${workload.count.toLocaleString('en-US')} events appended (${((performance.now() - appendStarted) / 1000).toFixed(0)} s)`,
          );
          report += 100_000;
        }
      }

      const rebuilt = await rebuildProjection(projections.db, store, memoryProjection, { batchSize: BATCH_EVENTS });
      const rows = await countRows(projections.db, rebuilt.schema);
      print(
        `rebuild: ${rebuilt.events.toLocaleString('en-US')} events -> ${rows.toLocaleString('en-US')} memory_versions rows in ${rebuilt.seconds.toFixed(1)} s = ${rate(rebuilt.events, rebuilt.seconds)} events/s`,
      );

      const baseline = await insertBaseline(databaseUrl, rebuilt.schema);
      print(
        `baseline (multi-row INSERT of those rows): ${baseline.seconds.toFixed(1)} s = ${rate(baseline.rows, baseline.seconds)} rows/s = ${rate(rebuilt.events, baseline.seconds)} events/s`,
      );
      print(`rebuild / baseline: ${(baseline.seconds / rebuilt.seconds).toFixed(2)} (goal >= 0.25)`);

      // The other read model rebuilds on its own (the memory one above was not touched by it).
      const trust = await rebuildProjection(projections.db, store, conflictsTrustProjection, { batchSize: BATCH_EVENTS });
      print(
        `rebuild of conflicts_trust alone: ${trust.events.toLocaleString('en-US')} events in ${trust.seconds.toFixed(1)} s = ${rate(trust.events, trust.seconds)} events/s (${(trust.seconds / rebuilt.seconds).toFixed(2)} of the memory rebuild's time)`,
      );
    } finally {
      await projections.close();
      await store.close();
    }
  },
};

async function countRows(db: ProjectionsKysely, schema: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`${schema}.memory_versions`)}`.execute(db);
  return rows[0]!.n;
}

/**
 * Copies the rebuilt rows into a fresh table of the same definition with
 * plain multi-row INSERTs; only the INSERTs and COMMITs are timed (the rows
 * are read in keyset pages between them).
 */
async function insertBaseline(databaseUrl: string, source: string): Promise<{ rows: number; seconds: number }> {
  const target = `bench_baseline_${Date.now()}`;
  const projections = await openProjectionDatabase(databaseUrl, { migrate: false });
  const reader = new pg.Client({ connectionString: databaseUrl });
  const writer = new pg.Client({ connectionString: databaseUrl });
  await reader.connect();
  await writer.connect();
  try {
    await sql`create schema ${sql.id(target)}`.execute(projections.db);
    for (const statement of memoryTables(projections.db, target)) await statement.execute();
    let timed = 0;
    let copied = 0;
    let after: unknown[] | undefined;
    for (;;) {
      const page = await reader.query({
        text: `select * from ${source}.memory_versions ${after ? `where (${KEY.join(', ')}) > ($1, $2, $3, $4)` : ''} order by ${KEY.join(', ')} limit ${ROWS_PER_TRANSACTION}`,
        values: after ?? [],
        rowMode: 'array',
      });
      if (page.rows.length === 0) break;
      const columns = page.fields.map((f) => f.name);
      const values = page.rows.map((row: unknown[]) =>
        row.map((v, i) => (JSON_COLUMNS.has(columns[i]!) && v !== null ? JSON.stringify(v) : v)),
      );
      const started = performance.now();
      await writer.query('begin');
      for (let i = 0; i < values.length; i += ROWS_PER_STATEMENT) {
        const chunk = values.slice(i, i + ROWS_PER_STATEMENT);
        const tuples = chunk.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`).join(', ');
        await writer.query(`insert into ${target}.memory_versions (${columns.join(', ')}) values ${tuples}`, chunk.flat());
      }
      await writer.query('commit');
      timed += performance.now() - started;
      copied += values.length;
      const last = page.rows[page.rows.length - 1] as unknown[];
      after = KEY.map((k) => last[columns.indexOf(k)]);
    }
    return { rows: copied, seconds: timed / 1000 };
  } finally {
    await sql`drop schema if exists ${sql.id(target)} cascade`.execute(projections.db);
    await reader.end();
    await writer.end();
    await projections.close();
  }
}
