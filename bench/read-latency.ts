// recall and asOf latency on one subject of a large memory_versions table
// (default 1,000,000 versions over 10,000 subjects), each against a baseline
// in the same run: one indexed SELECT of the same rows. Goal: recall p99 <=
// 3x the baseline's p99.
//
// The measured subjects are written through the real write side (sealed
// fields, real keys; one of them consolidated so recall serves its summary)
// and projected by the projector. The other subjects' versions are bulk
// inserted into the active schema's memory_versions by SQL (realistic row
// sizes, a third of them closed versions): they make the table and its
// indexes big; they are never read.
//   MEMLEDGER_BENCH_READ_VERSIONS   total memory versions (default 1000000)
//   MEMLEDGER_BENCH_READ_SUBJECTS   subjects (default 10000)
//   MEMLEDGER_BENCH_READ_SAMPLES    timed calls per query (default 400)
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { inSchema, type ProjectionsKysely } from '../src/projections/runtime/schema-handles.js';
import { importEntries, validateImportLines } from '../src/commands/import.js';
import { retractMemory } from '../src/commands/lifecycle.js';
import { supersedeMemory } from '../src/commands/record.js';
import { runConsolidation } from '../src/commands/consolidation/run.js';
import { shadowTenantsFrom } from '../src/commands/consolidation/services.js';
import { subjectStreamName } from '../src/domain/events/stream-names.js';
import { activeEntries } from '../src/domain/subject/state.js';
import { deterministicSummarizer } from '../src/infrastructure/summarizer/deterministic.js';
import { believedAt } from '../src/projections/memory/as-of.js';
import type { MemoryProjectionDb } from '../src/projections/memory/tables.js';
import { asOf } from '../src/queries/as-of.js';
import { catchUp, openReadSide } from '../src/queries/read-side.js';
import { recall } from '../src/queries/recall/recall.js';
import { forgetTokenCounts } from '../src/queries/recall/token-cache.js';
import { openLedger, type OpenLedger } from '../src/runtime/open-ledger.js';
import type { Bench } from './run.js';
import { percentile } from './support/percentile.js';

const TENANT = 'bench';
const PER_SUBJECT_ENTRIES = 80;

export function setting(name: string, fallback: number): number {
  const text = process.env[name];
  const n = text === undefined ? fallback : Number(text);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number`);
  return n;
}

function entry(i: number): Record<string, unknown> {
  if (i % 10 === 0)
    return {
      kind: 'semantic',
      key: `order.o${i}.wait`,
      value: { type: 'number', amount: String(i % 96), unit: 'h' },
      content: `Refund wait for order ${i} is ${i % 96} hours.`,
      source: { type: 'verified_tool_fact', refs: [`tool://oms/${i}`] },
    };
  if (i % 17 === 0)
    return {
      kind: 'constraint',
      key: `contact.channel${i}`,
      value: { type: 'boolean', value: true },
      polarity: 'negated',
      content: 'Never use this channel.',
      source: { type: 'user_assertion', refs: [`msg://t/${i}`] },
    };
  return {
    kind: i % 3 === 0 ? 'episodic' : 'profile',
    key: `pref.k${i}`,
    value: { type: 'text', text: `value ${i}` },
    content: `The user mentioned preference ${i} while asking about a delivery.`,
    source: { type: 'user_assertion', refs: [`msg://t/${i}`] },
    confidence: 0.8,
  };
}

/** About 100 versions: 80 recorded, 10 superseded (10 more recorded), 10 retracted. */
async function measuredSubject(ledger: OpenLedger, subject: string): Promise<void> {
  const context = { tenant: TENANT, subject };
  await importEntries(ledger, context, validateImportLines(Array.from({ length: PER_SUBJECT_ENTRIES }, (_, i) => entry(i + 1))), {
    importId: subject,
  });
  const active = activeEntries((await ledger.subjects.load(subjectStreamName(TENANT, subject))).state);
  for (const target of active.slice(0, 10))
    await supersedeMemory(ledger, context, target.memoryId, {
      ...entry(target.sequence),
      value: { type: 'text', text: `revised ${target.sequence}` },
    });
  for (const target of active.slice(10, 20)) await retractMemory(ledger, context, target.memoryId, 'withdrawn');
}

export async function fillVersions(db: ProjectionsKysely, schema: string, rows: number, subjects: number): Promise<void> {
  const table = sql.table(`${schema}.memory_versions`);
  const chunk = 100_000;
  for (let from = 0; from < rows; from += chunk) {
    const to = Math.min(rows, from + chunk) - 1;
    // Every third version closed by the next one; sealed-size jsonb values; a third with content.
    await sql`
      insert into ${table} (tenant, subject, memory_id, version, sequence, status, kind, key, scopes, value_type, value_hash, value, polarity,
                            content, content_hash, source_type, source_refs, trust, confidence, sensitivity, consent_ref,
                            valid_from, valid_to, expires_at, superseded_by, tx_from, tx_to, tx_from_commit, tx_from_prepare,
                            tx_to_commit, tx_to_prepare, opened_by, opened_by_type, closed_by)
      select ${TENANT}, 'filler-' || ((n / 3) % ${subjects}), 'm-' || (n / 3), (n % 3) + 1, n / 3 + 1,
             case when n % 3 = 2 then 'active' else 'superseded' end, 'profile', 'pref.k' || (n % 97), '{}'::jsonb, 'text',
             md5(n::text) || md5((n + 1)::text),
             jsonb_build_object('alg', 'A256GCM', 'keyId', 'mk_' || md5(n::text), 'iv', 'AAAAAAAAAAAAAAAA', 'ct', encode(sha256(n::text::bytea), 'base64') || encode(sha256((n + 7)::text::bytea), 'base64')),
             'affirmed',
             case when n % 3 = 0 then jsonb_build_object('alg', 'A256GCM', 'keyId', 'mk_' || md5(n::text), 'iv', 'AAAAAAAAAAAAAAAA', 'ct', repeat(encode(sha256(n::text::bytea), 'base64'), 3)) end,
             case when n % 3 = 0 then md5(n::text) || md5((n + 2)::text) end,
             'user_assertion', jsonb_build_array('msg://t/' || n), 'user_assertion', 0.8, 'normal', null,
             timestamptz '2026-01-01' + (n % 1000) * interval '1 minute', null, null, null,
             timestamptz '2026-01-01' + n * interval '1 second',
             case when n % 3 = 2 then null else timestamptz '2026-01-01' + (n + 1) * interval '1 second' end,
             n, n, case when n % 3 = 2 then null else n + 1 end, case when n % 3 = 2 then null else n + 1 end,
             gen_random_uuid(), 'MemoryRecorded', case when n % 3 = 2 then null else gen_random_uuid() end
        from generate_series(${from}::bigint, ${to}::bigint) as n`.execute(db);
  }
  await sql`analyze ${table}`.execute(db);
}

export interface Figures {
  readonly p50: number;
  readonly p99: number;
  /** This process's CPU time per call (user + system), ms: less sensitive to other load on the machine than wall time. */
  readonly cpu: number;
}

/**
 * Round-robin: each round runs every query once, in turn, so that whatever
 * else loads the machine weighs on all of them alike.
 */
export async function interleaved(
  samples: number,
  queries: ReadonlyArray<readonly [string, () => Promise<unknown>]>,
): Promise<Map<string, Figures>> {
  const times = queries.map(() => [] as number[]);
  const cpu = queries.map(() => 0);
  for (let round = 0; round < samples; round++) {
    for (const [i, [, run]] of queries.entries()) {
      const cpuStart = process.cpuUsage();
      const started = performance.now();
      await run();
      times[i]!.push(performance.now() - started);
      const used = process.cpuUsage(cpuStart);
      cpu[i]! += (used.user + used.system) / 1000;
    }
  }
  return new Map(
    queries.map(([label], i) => {
      const sorted = times[i]!.sort((a, b) => a - b);
      return [label, { p50: percentile(sorted, 50), p99: percentile(sorted, 99), cpu: cpu[i]! / samples }];
    }),
  );
}

const ms = (n: number) => `${n.toFixed(2)} ms`;

export const readLatencyBench: Bench = {
  name: 'read-latency',
  async run({ databaseUrl, print }) {
    const versions = setting('MEMLEDGER_BENCH_READ_VERSIONS', 1_000_000);
    const subjects = setting('MEMLEDGER_BENCH_READ_SUBJECTS', 10_000);
    const samples = setting('MEMLEDGER_BENCH_READ_SAMPLES', 400);
    const ledger = await openLedger({
      env: { MEMLEDGER_EVENTSTORE_URL: databaseUrl, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
    });
    const read = await openReadSide(ledger);
    try {
      let started = performance.now();
      await measuredSubject(ledger, 'measured-raw');
      await measuredSubject(ledger, 'measured-summary');
      const services = {
        summarizer: deterministicSummarizer(),
        countTokens: read.countTokens,
        tokenBudget: 4000,
        shadowMode: shadowTenantsFrom(undefined),
      };
      const consolidated = await runConsolidation(ledger, services, { tenant: TENANT, subject: 'measured-summary' });
      if (!consolidated.ok || consolidated.result.status !== 'switched')
        throw new Error(`consolidation did not switch: ${JSON.stringify(consolidated)}`);
      const [caught] = await catchUp(read);
      const schema = caught!.schema;
      const measured = Number(
        (await sql<{ n: string }>`select count(*) as n from ${sql.table(`${schema}.memory_versions`)}`.execute(read.projections)).rows[0]!
          .n,
      );
      print(`measured subjects written and projected in ${((performance.now() - started) / 1000).toFixed(1)} s (${measured} versions)`);
      started = performance.now();
      await fillVersions(read.projections, schema, Math.max(0, versions - measured), Math.max(1, subjects - 2));
      const total = Number(
        (await sql<{ n: string }>`select count(*) as n from ${sql.table(`${schema}.memory_versions`)}`.execute(read.projections)).rows[0]!
          .n,
      );
      print(
        `memory_versions: ${total.toLocaleString('en')} rows over ${subjects.toLocaleString('en')} subjects (filler inserted in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );

      const tables = inSchema<MemoryProjectionDb>(read.projections, schema);
      const current = (subject: string) =>
        tables
          .selectFrom('memory_versions')
          .selectAll()
          .where('tenant', '=', TENANT)
          .where('subject', '=', subject)
          .where('tx_to', 'is', null)
          .where('status', '=', 'active')
          .execute();
      const now = new Date();
      const validTime = new Date(now.getTime() + 60_000);
      const believed = (subject: string) => believedAt(tables, { tenant: TENANT, subject, systemTime: now, validTime });
      const rowsRaw = (await current('measured-raw')).length;
      const rowsBelieved = (await believed('measured-raw')).length;

      for (let i = 0; i < 30; i++) {
        await current('measured-raw');
        await recall(read, { tenant: TENANT, subject: 'measured-raw' });
        await recall(read, { tenant: TENANT, subject: 'measured-summary' });
        await asOf(read, { tenant: TENANT, subject: 'measured-raw', systemTime: now.toISOString(), validTime: validTime.toISOString() });
      }
      const recallRaw = () => recall(read, { tenant: TENANT, subject: 'measured-raw' });
      const labels = {
        baseline: `baseline: one indexed SELECT of the current rows (${rowsRaw})`,
        raw: 'recall, raw entries',
        summary: 'recall, summary',
        cold: 'recall, raw entries, token counts not remembered',
        beliefBaseline: `baseline: one indexed SELECT of the believed rows (${rowsBelieved})`,
        asOf: 'asOf',
      };
      // Three passes, each interleaving a query with its baseline: a pass's garbage is collected within it.
      const results = new Map([
        ...(await interleaved(samples, [
          [labels.baseline, () => current('measured-raw')],
          [labels.raw, recallRaw],
          [labels.summary, () => recall(read, { tenant: TENANT, subject: 'measured-summary' })],
        ])),
        ...(await interleaved(samples, [
          [labels.beliefBaseline, () => believed('measured-raw')],
          [
            labels.asOf,
            () =>
              asOf(read, { tenant: TENANT, subject: 'measured-raw', systemTime: now.toISOString(), validTime: validTime.toISOString() }),
          ],
        ])),
        ...(await interleaved(Math.max(1, Math.floor(samples / 4)), [
          [
            labels.cold,
            () => {
              forgetTokenCounts();
              return recallRaw();
            },
          ],
        ])),
      ]);
      for (const [label, r] of results) print(`${label}: p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, CPU ${ms(r.cpu)} per call`);
      const get = (label: string) => results.get(label)!;
      const recallP99 = Math.max(get(labels.raw).p99, get(labels.summary).p99);
      const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
      print(
        `recall p99 / baseline p99 = ${ratio(recallP99, get(labels.baseline).p99)} (goal <= 3x); p50 ${ratio(Math.max(get(labels.raw).p50, get(labels.summary).p50), get(labels.baseline).p50)}; ` +
          `asOf p99 / its baseline p99 = ${ratio(get(labels.asOf).p99, get(labels.beliefBaseline).p99)}, p50 ${ratio(get(labels.asOf).p50, get(labels.beliefBaseline).p50)}`,
      );
    } finally {
      await read.close();
      await ledger.close();
    }
  },
};
