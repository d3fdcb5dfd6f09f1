// Compaction records (issue 23, seed 002): the six parts on every artifact,
// seed 002's recovery tests (drop an anchor, break a pointer, change the
// contract version, supersede an anchored input: each stops `assess`, never
// `ready`), identity by run id, uncertain anchors, flagged and above-ceiling
// entries kept out as discards, and the record's place in lineage and PROV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConsolidation } from '../../src/commands/consolidation/prepare.js';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { recordMemory } from '../../src/commands/record.js';
import { assess } from '../../src/queries/assess/assess.js';
import { lineage } from '../../src/queries/lineage/lineage.js';
import { toProvJson } from '../../src/queries/lineage/prov-json.js';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { randomUUID } from 'node:crypto';
import canonicalize from 'canonicalize';
import { sealOutput } from '../../src/commands/consolidation/artifact-output.js';
import { decodeEvent } from '../../src/domain/events/decode.js';
import { artifactStreamName } from '../../src/domain/events/stream-names.js';
import { summarizeDeterministically } from '../../src/domain/consolidation/deterministic-summary.js';
import { compactionRecordOf, gateOutput } from '../../src/domain/consolidation/snapshot.js';
import { forceArtifact, snapshotNow } from './support/forced-artifact.js';
import { provJsonProblems } from './support/prov-json-shape.js';
import { consolidationServices } from './support/services.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
let services: ConsolidationServices;
beforeAll(async () => {
  world = await openReadWorld('queries_compaction_record');
  services = await consolidationServices();
});
afterAll(async () => world?.close());

const entry = (key: string, value: string, extra: Record<string, unknown> = {}) => ({
  kind: 'semantic',
  key,
  value: { type: 'text', text: value },
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
  ...extra,
});
const constraint = (key: string) => ({
  kind: 'constraint',
  key,
  value: { type: 'boolean', value: true },
  polarity: 'negated',
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
});

async function recordAll(subject: string, entries: Array<Record<string, unknown>>): Promise<string[]> {
  const ids: string[] = [];
  for (const e of entries) ids.push(ok(await recordMemory(world.t.ledger, ctx(subject), e)).memoryId);
  return ids;
}

async function assessed(artifactId: string, extra: { runId?: string; recordVersion?: string } = {}) {
  await world.catchUpArtifact('acme', artifactId);
  return assess(world.read, {
    tenant: 'acme',
    artifactId,
    ...(extra.runId !== undefined ? { runId: extra.runId } : {}),
    ...(extra.recordVersion !== undefined ? { contract: { recordVersion: extra.recordVersion } } : {}),
  });
}

const recordOf = async (artifactId: string) => (await readArtifact(world.t.ledger.eventStore, artifactId)).generated!.record;

describe('the compaction record', () => {
  it('has the six parts, anchors derived from the inputs, statements sealed; the reader continues from a ready one', async () => {
    const s = 'cr-parts';
    const [plan, guess, noCalls] = await recordAll(s, [
      entry('plan.tier', 'gold', { scopes: { project: 'p1' } }),
      entry('vendor.guess', 'acme-courier', { source: { type: 'model_inference', refs: ['tool://guess'] } }),
      constraint('contact.phone_calls'),
    ]);
    const run = ok(await runConsolidation(world.t.ledger, services, ctx(s), { trigger: 'phase', runId: 'review-19' }));
    expect(run.status).toBe('switched');
    const artifactId = 'prepare' in run ? run.prepare.artifactId : '';
    const stored = await readArtifact(world.t.ledger.eventStore, artifactId);
    expect(stored.generated!.manifest.trigger).toEqual({ reason: 'phase', runId: 'review-19' });
    const record = stored.generated!.record;
    expect(record.stage).toMatchObject({ trigger: 'phase', runId: 'review-19', fromSequence: 1, throughSequence: 3 });
    // Sorted by id (memory ids differ from run to run).
    expect(record.anchors.map((a) => [a.id, a.kind, a.status])).toEqual(
      [
        ['contract', 'contract', 'settled'],
        [`fact:${noCalls}`, 'constraint', 'settled'],
        [`fact:${plan}`, 'decision', 'settled'],
        ['scope:project=p1', 'scope', 'settled'],
        ['stage', 'stage', 'settled'],
        [`unknown:${guess}`, 'unknown', 'uncertain'],
      ].sort(([a], [b]) => (a! < b! ? -1 : 1)),
    );
    expect(record.pointers).toContainEqual(
      expect.objectContaining({ id: `src:${guess}:0`, kind: 'source_ref', purpose: 'provenance', ref: 'tool://guess', sequence: 2 }),
    );
    expect(record.keeps).toContainEqual({ memoryId: guess!, reason: 'uncertain' });
    expect(record.rehydration).toMatchObject({ verify: [`unknown:${guess}`], continueBy: 'next_reader', onStop: 'reviewer' });
    expect(record.lossChecks).toContainEqual({ check: `uncertain_anchor:unknown:${guess}`, passed: true });
    expect(record.lossChecks.every((c) => c.passed)).toBe(true);
    // What the anchors say is sealed: no value of an entry is in the event in clear.
    const clear = JSON.stringify(stored.generated);
    for (const word of ['gold', 'acme-courier']) expect(clear).not.toContain(word);

    const result = await assessed(artifactId, { runId: 'review-19' });
    expect(result).toMatchObject({ status: 'ready', findings: [] });
    expect(result.record!.anchors.find((a) => a.id === `fact:${plan}`)!.statement).toContain('gold');
    // The uncertain entry is stated as uncertain, never as a fact.
    expect(await assessed(artifactId, { runId: 'another-run' })).toMatchObject({ status: 'blocked', findings: [{ code: 'run_mismatch' }] });
  });

  it('recovery: a dropped anchor, a broken pointer, a changed contract version, a superseded anchored input each stop assess', async () => {
    const s = 'cr-recovery';
    const [tier, , noCalls] = await recordAll(s, [
      entry('plan.tier', 'gold', { scopes: { project: 'p1' } }),
      entry('language', 'zh'),
      constraint('contact.phone_calls'),
    ]);
    const dropped = await forceArtifact(
      world.t.ledger,
      services,
      ctx(s),
      (o) => o,
      false,
      (r) => ({
        ...r,
        anchors: r.anchors.filter((a) => a.id !== `fact:${noCalls}`),
      }),
    );
    expect(await assessed(dropped)).toMatchObject({
      status: 'needs_rehydration',
      findings: [expect.objectContaining({ code: 'anchor_missing', anchorId: `fact:${noCalls}` })],
    });
    const broken = await forceArtifact(
      world.t.ledger,
      services,
      ctx(s),
      (o) => o,
      false,
      (r) => ({ ...r, pointers: r.pointers.filter((p) => p.id !== `mem:${tier}`) }),
      78,
    );
    const pointerless = await assessed(broken);
    expect(pointerless.status).toBe('needs_rehydration');
    expect(pointerless.findings).toContainEqual(expect.objectContaining({ code: 'pointer_broken', anchorId: `fact:${tier}` }));
    expect(pointerless.findings.every((f) => f.code === 'pointer_broken')).toBe(true);

    const run = ok(await runConsolidation(world.t.ledger, services, ctx(s)));
    const current = 'prepare' in run ? run.prepare.artifactId : '';
    expect((await assessed(current)).status).toBe('ready');
    expect(await assessed(current, { recordVersion: 'compaction-record-v2' })).toMatchObject({
      status: 'needs_rehydration',
      findings: [{ code: 'contract_changed', message: expect.stringContaining('compaction-record-v1 -> compaction-record-v2') }],
    });
    // A newer statement of the anchored plan tier supersedes it: the anchor must be refreshed.
    await recordAll(s, [entry('plan.tier', 'platinum', { scopes: { project: 'p1' } })]);
    const after = await assessed(current);
    expect(after.status).toBe('needs_rehydration');
    expect(after.findings).toContainEqual(
      expect.objectContaining({ code: 'anchor_input_changed', memoryId: tier, anchorId: `fact:${tier}` }),
    );
  });

  it('is built deterministically: twice from the same inputs, byte for byte the same record (RFC 8785)', async () => {
    const s = 'cr-determinism';
    await recordAll(s, [entry('plan.tier', 'gold'), constraint('contact.phone_calls'), entry('todo.callback', 'call back Monday')]);
    const built = async () => {
      // Each time from the store: the subject folded again, its entries opened again.
      const snapshot = await snapshotNow(world.t.ledger, services, ctx(s), 1);
      const output = summarizeDeterministically({ inputs: snapshot.hot, conflicts: snapshot.conflicts });
      const gate = gateOutput(snapshot, output, services.countTokens);
      return compactionRecordOf(snapshot, output, gate);
    };
    const [first, second] = [await built(), await built()];
    expect(canonicalize(second.record)).toBe(canonicalize(first.record));
    expect(canonicalize(second.statements)).toBe(canonicalize(first.statements));
    // And it is the record prepare stores for that snapshot.
    const prepared = ok(await prepareConsolidation(world.t.ledger, services, ctx(s), { fromRaw: true }));
    expect(canonicalize(await recordOf(prepared.artifactId))).toBe(canonicalize(first.record));
  });

  it('never carries what the write gate flagged, nor entries above the summary ceiling: both are discards with a category', async () => {
    const s = 'cr-flagged';
    const [kept, external, personal] = await recordAll(s, [
      entry('plan.tier', 'gold'),
      entry('shipping.note', 'leave it at the blue door', { source: { type: 'verified_tool_fact', refs: ['https://example.com/page'] } }),
      entry('contact.phone', 'the phone is 13800138000'),
    ]);
    const ceiling: ConsolidationServices = { ...services, summaryCeiling: () => 'normal' };
    const prepared = ok(await prepareConsolidation(world.t.ledger, ceiling, ctx(s)));
    expect(prepared).toMatchObject({ status: 'gate_passed', discards: { flagged_untrusted: 1, above_summary_ceiling: 1 } });
    const record = await recordOf(prepared.artifactId);
    expect(record.discards.map((d) => [d.memoryId, d.category, d.recoverable])).toEqual(
      [
        [external, 'flagged_untrusted', true],
        [personal, 'above_summary_ceiling', true],
      ].sort((a, b) => (String(a[0]) < String(b[0]) ? -1 : 1)),
    );
    expect(record.keeps).toEqual([{ memoryId: kept, reason: 'stated' }]);
    expect(record.lossChecks).toContainEqual({ check: 'no_flagged_content', passed: true });
    const result = await assessed(prepared.artifactId);
    expect(result.findings.filter((f) => f.code === 'discard_without_reason')).toEqual([]);
    expect(JSON.stringify(result.record)).not.toContain('blue door');
  });

  it('lineage lists the discards and whether they can be recovered; PROV-JSON holds the anchors and pointers', async () => {
    const s = 'cr-lineage';
    const [tier] = await recordAll(s, [
      entry('plan.tier', 'gold', { scopes: { project: 'p1' } }),
      entry('contact.phone', 'the phone is 13800138000'),
    ]);
    const run = ok(await runConsolidation(world.t.ledger, { ...services, summaryCeiling: () => 'normal' }, ctx(s)));
    const artifactId = 'prepare' in run ? run.prepare.artifactId : '';
    await world.catchUpArtifact('acme', artifactId);
    const graph = await lineage(world.read, 'acme', artifactId);
    expect(graph.artifacts[0]!.record!.discards).toEqual([
      expect.objectContaining({ category: 'above_summary_ceiling', recoverable: true, reason: expect.stringContaining('ceiling normal') }),
    ]);
    const prov = toProvJson(graph);
    expect(provJsonProblems(prov)).toEqual([]);
    const anchor = prov.entity[`ml:anchor/${artifactId}/fact:${tier}`];
    expect(anchor).toMatchObject({ 'ml:kind': 'decision', 'ml:status': 'settled' });
    expect(prov.entity[`ml:pointer/${artifactId}/mem:${tier}`]).toMatchObject({ 'ml:kind': 'memory_version', 'ml:purpose': 'evidence' });
    expect(Object.values(prov.wasDerivedFrom)).toContainEqual({
      'prov:generatedEntity': `ml:anchor/${artifactId}/fact:${tier}`,
      'prov:usedEntity': `ml:memory/${tier}/v1`,
    });
  });

  it('an artifact written before records (ArtifactGenerated v1) is upcast on read, never rewritten, and must be rebuilt', async () => {
    const s = 'cr-legacy';
    const [cold] = await recordAll(s, [entry('chat.note', 'asked about weekends', { kind: 'episodic' }), constraint('contact.sms')]);
    const snapshot = await snapshotNow(world.t.ledger, services, ctx(s), 90);
    const { trigger: _trigger, ...manifest } = snapshot.manifest;
    const artifactId = manifest.artifactId;
    const output = summarizeDeterministically({ inputs: snapshot.hot, conflicts: snapshot.conflicts });
    const sealed = await sealOutput(world.t.ledger.keyStore, ctx(s), artifactId, output);
    if (sealed.status !== 'sealed') throw new Error('not sealed');
    const at = world.t.ledger.clock().toISOString();
    const v1 = {
      artifactId,
      manifest,
      output: sealed.output,
      outputHash: sealed.outputHash,
      coldTier: [{ memoryId: cold, reason: 'over_token_budget' }],
      generatedAt: at,
    };
    await world.t.ledger.eventStore.append(
      artifactStreamName(artifactId),
      [
        { id: randomUUID(), type: 'ArtifactGenerated', data: v1, metadata: { schemaVersion: 1 } },
        { id: randomUUID(), type: 'GatePassed', data: { artifactId, mustPreserveCount: 1, checkedAt: at }, metadata: { schemaVersion: 1 } },
      ],
      { expectedRevision: 'no_stream' },
    );
    const record = await recordOf(artifactId);
    expect(record).toMatchObject({
      version: 'compaction-record-v0',
      anchors: [],
      discards: [{ memoryId: cold, category: 'over_token_budget', recoverable: true, pointerId: `mem:${cold}` }],
    });
    expect(record.pointers.map((p) => p.id)).toEqual(['manifest', ...manifest.inputs.map((i) => `mem:${i.memoryId}`)].sort());
    const stored = await world.t.ledger.eventStore.readStream(artifactStreamName(artifactId), { fromRevision: 0, maxCount: 1 });
    expect(stored[0]!.data).toEqual(v1);
    expect(stored[0]!.metadata.schemaVersion).toBe(1);
    const result = await assessed(artifactId);
    expect(result.status).toBe('needs_rehydration');
    expect(result.findings.map((f) => f.code)).toEqual(expect.arrayContaining(['contract_changed', 'anchor_missing']));
    // A v1 event with a malformed cold tier is a typed error naming the field, not a half-made record.
    const bad = decodeEvent('ArtifactGenerated', { ...v1, coldTier: [{ memoryId: cold, reason: 'bored' }] }, 1);
    expect(bad.ok ? '' : bad.error.field).toBe('record.discards.0.category');
  });
});
