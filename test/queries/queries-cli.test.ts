// The read side through the real CLI, in child processes: JSON on stdout,
// errors as one JSON object on stderr, exit 2 on bad input, exit 3 when
// verify finds a fault. Each query first catches the projections up, so the
// CLI reads its own writes with no `projections run` in between.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { recordMemory } from '../../src/commands/record.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { forceArtifact } from './support/forced-artifact.js';
import { provJsonProblems } from './support/prov-json-shape.js';
import { consolidationServices } from './support/services.js';
import { ok } from './support/read-world.js';

let db: TestDatabase;
let env: Record<string, string>;
/** Writes go in process (the CLI's write side has its own tests); the queries run in child processes on the same database and keys. */
let ledger: OpenLedger;
let services: ConsolidationServices;
beforeAll(async () => {
  db = await createTestDatabase('queries_cli');
  env = cliEnvironment(db.url);
  ledger = await openLedger({ env });
  services = await consolidationServices();
});
afterAll(async () => {
  await ledger?.close();
  await db?.drop();
});

async function cli(args: string[], expectCode = 0): Promise<any> {
  const run = await runCli(args, env);
  expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(expectCode);
  return expectCode === 0 ? JSON.parse(run.stdout) : { stdout: run.stdout, error: JSON.parse(run.stderr.trim().split('\n').at(-1)!) };
}

const entry = (key: string, text: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: 'profile',
    key,
    value: { type: 'text', text },
    source: { type: 'user_assertion', refs: [`msg://${key}`] },
    ...extra,
  });
const S = ['--tenant', 'acme', '--subject', 'c-1'];

describe('memledger CLI, read side', () => {
  let artifactId: string;

  it('recall reads the writes made just before it: raw entries first, the summary once published', async () => {
    const c = { tenant: 'acme', subject: 'c-1' };
    const first = ok(await recordMemory(ledger, c, JSON.parse(entry('notification.preference', 'sms'))));
    ok(await recordMemory(ledger, c, JSON.parse(entry('shipping.city', 'Hangzhou', { scopes: { project: 'shop-a' } }))));
    const raw = await cli(['recall', ...S]);
    expect(raw).toMatchObject({
      source: 'raw',
      reason: 'no_alias',
      items: [{ type: 'memory', key: 'notification.preference', provenance: { memoryId: first.memoryId, version: 1 } }],
      excluded: { out_of_scope: 1 },
    });
    const asked = await cli([
      'recall',
      ...S,
      '--query',
      'how to notify? sms',
      '--top-k',
      '1',
      '--key',
      'notification.*',
      '--kind',
      'profile',
    ]);
    expect(asked).toMatchObject({ retrieval: { topK: 1, key: 'notification.*', kind: 'profile' } });
    expect(asked.items).toMatchObject([{ memoryId: first.memoryId, retrieval: { rank: 1 } }]);
    const run = ok(await runConsolidation(ledger, services, c));
    if (run.status !== 'switched') throw new Error(run.status);
    artifactId = run.prepare.artifactId;
    const summary = await cli(['recall', ...S, '--scope', 'project=shop-a', '--budget', '500']);
    expect(summary).toMatchObject({ source: 'summary', reason: 'summary_current', alias: { artifactId }, budget: { limit: 500 } });
    expect(summary.items.map((i: { key: string }) => i.key).sort()).toEqual(['notification.preference', 'shipping.city']);
    expect(
      summary.items.every(
        (i: { type: string; provenance: { artifactId: string } }) => i.type === 'claim' && i.provenance.artifactId === artifactId,
      ),
    ).toBe(true);
  }, 120_000);

  it('as-of and replay give the same answer', async () => {
    const at = ['--valid-time', new Date().toISOString()];
    const now = new Date(Date.now() + 1000).toISOString();
    const table = await cli(['as-of', ...S, '--system-time', now, ...at]);
    const stream = await cli(['replay', ...S, '--at', now, ...at]);
    expect(table.from).toBe('memory_versions');
    expect(stream.from).toBe('event_stream');
    expect(stream.beliefs).toEqual(table.beliefs);
    expect(table.beliefs.map((b: { key: string }) => b.key)).toEqual(['notification.preference', 'shipping.city']);
  }, 60_000);

  it('lineage (json and prov-json), stale and assess', async () => {
    const prov = await cli(['lineage', '--tenant', 'acme', '--artifact', artifactId, '--format', 'prov-json']);
    expect(provJsonProblems(prov)).toEqual([]);
    expect(Object.keys(prov.entity).filter((id) => id.startsWith('ml:memory/'))).toHaveLength(2);
    expect(await cli(['stale', ...S])).toEqual({ tenant: 'acme', subject: 'c-1', alias: { artifactId, stale: false }, stale: [] });
    expect(await cli(['assess', '--tenant', 'acme', '--artifact', artifactId])).toMatchObject({ status: 'ready', findings: [] });
  }, 60_000);

  it('consolidate run --reason handoff --run-id: a record of its own, checked by assess --run-id', async () => {
    // The summary is current, yet a hand-off gets a record of its own, its reason in the manifest.
    const handoff = await cli(['consolidate', 'run', ...S, '--reason', 'handoff', '--run-id', 'review-19']);
    expect(handoff).toMatchObject({ status: 'switched', prepare: { trigger: 'handoff' } });
    expect(handoff.prepare.artifactId).not.toBe(artifactId);
    expect(await cli(['assess', '--tenant', 'acme', '--artifact', handoff.prepare.artifactId, '--run-id', 'review-19'])).toMatchObject({
      status: 'ready',
      record: { stage: { trigger: 'handoff', runId: 'review-19' }, rehydration: { continueBy: 'handoff_recipient' } },
    });
    expect(await cli(['consolidate', 'run', ...S, '--reason', 'lunch'], 2)).toMatchObject({ error: { field: 'reason' } });
  }, 120_000);

  it('verify passes (exit 0) on a healthy tenant and exits 3 on a false new fact forced past the gate', async () => {
    const healthy = await cli(['verify', '--tenant', 'acme']);
    expect(healthy).toMatchObject({ passed: true, staleVisible: 0, rebuilt: { falseNewFactRate: 0 } });

    const c = { tenant: 'bad', subject: 'b-1' };
    const id = ok(await recordMemory(ledger, c, JSON.parse(entry('notification.preference', 'sms')))).memoryId;
    await forceArtifact(ledger, services, c, (o) => ({
      ...o,
      claims: [
        ...o.claims,
        {
          key: 'notification.preference',
          scopes: {},
          value: { type: 'text', text: 'carrier pigeon' },
          polarity: 'affirmed',
          derivedFrom: [id],
        },
      ],
    }));
    const failed = await cli(['verify', '--tenant', 'bad'], 3);
    expect(failed.error).toMatchObject({
      error: 'verification_failed',
      message: expect.stringMatching(/published summaries state false new facts/),
    });
    expect(JSON.parse(failed.stdout)).toMatchObject({
      passed: false,
      findings: [
        expect.objectContaining({ check: 'false_new_fact', statement: expect.objectContaining({ why: 'differs_from_its_sources' }) }),
      ],
    });
  }, 120_000);

  it('verify reads every subject recorded before it, also while an older transaction holds the log back', async () => {
    // A transaction older than the record, still running when verify starts: the log's stable head stops short of the record.
    const older = new pg.Client({ connectionString: db.url });
    await older.connect();
    try {
      await older.query('begin');
      await older.query('select pg_current_xact_id()');
      ok(await recordMemory(ledger, { tenant: 'late', subject: 'l-1' }, JSON.parse(entry('shipping.city', 'Ningbo'))));
      const verifying = cli(['verify', '--tenant', 'late']);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      await older.query('commit');
      expect(await verifying).toMatchObject({ population: 1, sampled: ['l-1'], passed: true });
    } finally {
      await older.end();
    }
  }, 120_000);

  it('bad input exits 2 with the field, before anything is read', async () => {
    const cases: Array<[string[], string]> = [
      [['recall', ...S, '--budget', '0'], 'budget'],
      [['recall', ...S, '--scope', 'region=x'], 'scopes.region'],
      [['recall', ...S, '--query', 'sms', '--top-k', '201'], 'topK'],
      [['recall', ...S, '--query', '', '--kind', 'profile'], 'query'],
      [['as-of', ...S, '--system-time', 'yesterday'], 'systemTime'],
      [['lineage', '--tenant', 'acme', '--artifact', artifactId, '--format', 'xml'], 'format'],
    ];
    const runs = [];
    for (const [args] of cases) runs.push(await runCli(args, env));
    runs.forEach((run, i) => {
      expect(run.code, `${cases[i]![0].join(' ')}: ${run.stderr}`).toBe(2);
      expect(JSON.parse(run.stderr)).toMatchObject({ error: 'invalid_input', field: cases[i]![1] });
    });
  }, 120_000);
});
