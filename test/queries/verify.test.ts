// verify: rebuild summaries for a sample of subjects from the raw layer and
// measure key-fact recall, false new facts, conflict retention and token
// reduction, for the rebuilt summaries and for those recall serves; find
// STALE summaries visible through recall. It passes on a healthy ledger and
// fails on seeded faults: a false new fact forced past the gate, and a STALE
// target served because the projection lost its STALE mark.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { recordMemory } from '../../src/commands/record.js';
import { recall } from '../../src/queries/recall/recall.js';
import { verify } from '../../src/queries/verify/verify.js';
import { forceArtifact } from './support/forced-artifact.js';
import { consolidationServices } from './support/services.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
let services: ConsolidationServices;

const text = (key: string, value: string, extra: Record<string, unknown> = {}) => ({
  kind: 'profile',
  key,
  value: { type: 'text', text: value },
  content: `The user said ${key} is ${value}, more than once.`,
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
  ...extra,
});
const subjectEntries = (i: number) => [
  text('notification.preference', i % 2 ? 'sms' : 'email'),
  text('shipping.city', 'Hangzhou'),
  {
    kind: 'constraint',
    key: 'contact.phone_calls',
    value: { type: 'boolean', value: true },
    polarity: 'negated',
    content: 'Never phone the user.',
    source: { type: 'user_assertion', refs: ['msg://t/2'] },
  },
  {
    kind: 'semantic',
    key: 'delivery.delay',
    value: { type: 'number', amount: String(24 * (i + 1)), unit: 'h' },
    source: { type: 'verified_tool_fact', refs: ['tool://wms'] },
  },
  {
    kind: 'procedural',
    key: 'task.refund',
    value: { type: 'text', text: 'refund for ORD-A1B2C3D4 awaits approval' },
    source: { type: 'verified_tool_fact', refs: ['tool://oms'] },
  },
  text('language', 'zh'),
  // Lower trust, same slot, another value: a conflict both sides of which must survive.
  { ...text('language', 'en'), source: { type: 'model_inference', refs: ['model://guess'] } },
  // Small talk (its words hold no fact) a summary compresses, so the token reduction is clearly above zero whatever the random ids cost in tokens.
  ...['one', 'two', 'three', 'four'].map((k) => ({
    kind: 'episodic',
    key: `chat.turn.${k}`,
    value: { type: 'text', text: `turn ${k}` },
    content: `The user asked about the delivery window of the parcel again during turn ${k}, and then about the courier, the weekend and the invoice once more.`,
    source: { type: 'user_assertion', refs: [`msg://chat/${k}`] },
  })),
];

async function fill(tenant: string, subject: string, i: number): Promise<string[]> {
  const ids: string[] = [];
  for (const e of subjectEntries(i)) ids.push(ok(await recordMemory(world.t.ledger, ctx(subject, tenant), e)).memoryId);
  return ids;
}

beforeAll(async () => {
  world = await openReadWorld('queries_verify');
  services = await consolidationServices();
  // A healthy tenant: consolidated subjects, one changed after its summary, one never consolidated.
  for (let i = 0; i < 5; i++) {
    const ids = await fill('acme', `v-${i}`, i);
    if (i < 4) ok(await runConsolidation(world.t.ledger, services, ctx(`v-${i}`)));
    if (i === 3) ok(await retractMemory(world.t.ledger, ctx('v-3'), ids[1]!, 'moved'));
  }
  await world.catchUp(...[0, 1, 2, 3, 4].map((i) => ctx(`v-${i}`)));
}, 120_000);
afterAll(async () => world?.close());

describe('verify', () => {
  it('passes on a healthy ledger and reports the measures', async () => {
    const report = await verify(world.read, services, { tenant: 'acme' });
    expect(report).toMatchObject({ population: 5, sampled: ['v-0', 'v-1', 'v-2', 'v-3', 'v-4'], staleVisible: 0, passed: true });
    expect(report.rebuilt).toMatchObject({
      subjects: 5,
      keyFactRecall: 1,
      textFactRecall: 1,
      falseNewFactRate: 0,
      conflictRetentionRate: 1,
    });
    // The words' facts: "Never phone the user" and the order id of the refund task, per subject.
    expect(report.rebuilt.textFacts).toBe(5 * 2);
    expect(report.rebuilt.keyFacts).toBeGreaterThanOrEqual(5 * 4);
    expect(report.rebuilt.conflicts).toBe(5);
    expect(report.rebuilt.averageTokenReduction).toBeGreaterThan(0.2);
    // v-3 changed after its summary: recall serves raw entries there, so three summaries are served.
    expect(report.published).toMatchObject({
      subjects: 3,
      keyFactRecall: 1,
      textFactRecall: 1,
      falseNewFactRate: 0,
      conflictRetentionRate: 1,
    });
    expect(report.findings).toEqual([]);
    expect(report.failures).toEqual([]);
  });

  it('samples a stable subset when asked for fewer subjects', async () => {
    const a = await verify(world.read, services, { tenant: 'acme', sample: 2, seed: 's1' });
    const b = await verify(world.read, services, { tenant: 'acme', sample: 2, seed: 's1' });
    expect(a.sampled).toHaveLength(2);
    expect(b.sampled).toEqual(a.sampled);
    await expect(verify(world.read, services, { tenant: 'acme', sample: 0 })).rejects.toMatchObject({
      name: 'InvalidInput',
      field: 'sample',
    });
  });

  it('fails on a summary with a false new fact forced past the gate', async () => {
    const ids = await fill('bad-facts', 'f-1', 1);
    const artifactId = await forceArtifact(world.t.ledger, services, ctx('f-1', 'bad-facts'), (o) => ({
      ...o,
      claims: [
        ...o.claims,
        { key: 'refund.approved', scopes: {}, value: { type: 'boolean', value: true }, polarity: 'affirmed', derivedFrom: [ids[0]!] },
      ],
    }));
    await world.catchUp(ctx('f-1', 'bad-facts'));
    expect((await recall(world.read, { tenant: 'bad-facts', subject: 'f-1' })).alias?.artifactId).toBe(artifactId);
    const report = await verify(world.read, services, { tenant: 'bad-facts' });
    expect(report.passed).toBe(false);
    expect(report.rebuilt.falseNewFactRate).toBe(0);
    expect(report.published.falseNewFactRate).toBeGreaterThan(0);
    expect(report.findings).toContainEqual({
      subject: 'f-1',
      check: 'false_new_fact',
      summary: 'published',
      artifactId,
      statement: { kind: 'claim', key: 'refund.approved', derivedFrom: [ids[0]], why: 'no_source_about_its_key' },
    });
  });

  it('fails on a summary that loses a fact of the words, or whose words state one no input has (forced past the gate)', async () => {
    const ids = await fill('lossy-words', 'w-1', 1);
    const never = ids[2]!;
    const artifactId = await forceArtifact(world.t.ledger, services, ctx('w-1', 'lossy-words'), (o) => ({
      ...o,
      claims: o.claims.map((c) => {
        if (c.derivedFrom.includes(never)) return { ...c, statement: 'Phone the user.' };
        return c.key === 'shipping.city' ? { ...c, statement: 'Ships to Hangzhou within 48 hours.' } : c;
      }),
    }));
    await world.catchUp(ctx('w-1', 'lossy-words'));
    expect((await recall(world.read, { tenant: 'lossy-words', subject: 'w-1' })).alias?.artifactId).toBe(artifactId);
    const report = await verify(world.read, services, { tenant: 'lossy-words' });
    expect(report.passed).toBe(false);
    expect(report.rebuilt).toMatchObject({ textFactRecall: 1, falseNewFactRate: 0 });
    expect(report.published.textFactRecall).toBeLessThan(1);
    expect(report.findings).toContainEqual({
      subject: 'w-1',
      check: 'text_fact_missing',
      summary: 'published',
      artifactId,
      facts: [{ memoryId: never, factKind: 'negation', status: 'polarity_flipped' }],
    });
    expect(report.findings).toContainEqual({
      subject: 'w-1',
      check: 'false_new_fact',
      summary: 'published',
      artifactId,
      statement: { kind: 'claim', key: 'shipping.city', derivedFrom: [ids[1]], why: 'words_unsupported', factKinds: ['number'] },
    });
    expect(report.failures).toEqual([
      expect.stringMatching(/^published summaries state false new facts/),
      expect.stringMatching(/^published summaries lose facts of the words/),
    ]);
    // Findings name ids and kinds, never what the words say.
    expect(JSON.stringify(report)).not.toMatch(/Hangzhou|48 hours|Phone the user/);
  });

  it('fails when a STALE summary is visible through recall (the projection lost its STALE mark)', async () => {
    const ids = await fill('bad-stale', 's-1', 2);
    const run = ok(await runConsolidation(world.t.ledger, services, ctx('s-1', 'bad-stale')));
    if (run.status !== 'switched') throw new Error(run.status);
    ok(await retractMemory(world.t.ledger, ctx('s-1', 'bad-stale'), ids[0]!, 'withdrawn'));
    await world.catchUp(ctx('s-1', 'bad-stale'));
    expect((await verify(world.read, services, { tenant: 'bad-stale' })).passed).toBe(true);
    // The fault: the projection forgets the epoch change and the STALE mark.
    const { rows } = await sql<{
      schema_name: string;
    }>`select schema_name from projection_schemas where projection = 'memory' and state = 'active'`.execute(world.read.projections);
    const schema = rows[0]!.schema_name;
    await sql`update ${sql.table(`${schema}.subject_clock`)} c set input_epoch = a.source_epoch from ${sql.table(`${schema}.summary_alias`)} a where c.tenant = 'bad-stale' and a.tenant = c.tenant and a.subject = c.subject`.execute(
      world.read.projections,
    );
    await sql`delete from ${sql.table(`${schema}.stale_artifacts`)} where tenant = 'bad-stale'`.execute(world.read.projections);
    expect((await recall(world.read, { tenant: 'bad-stale', subject: 's-1' })).source).toBe('summary');
    const report = await verify(world.read, services, { tenant: 'bad-stale' });
    expect(report).toMatchObject({ passed: false, staleVisible: 1 });
    expect(report.findings).toContainEqual(
      expect.objectContaining({ subject: 's-1', check: 'stale_visible', artifactId: run.prepare.artifactId }),
    );
  });
});
