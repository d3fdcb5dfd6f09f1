// assess(artifact), after seed 002's compaction record: ready, blocked
// (tenant or subject mismatch), needs_rehydration (epoch or contract
// changed, STALE), needs_evidence (an input can no longer be read),
// needs_review (a discard without a reason).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { forgetMemory } from '../../src/commands/forget.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { recordMemory } from '../../src/commands/record.js';
import { assess } from '../../src/queries/assess/assess.js';
import { forceArtifact } from './support/forced-artifact.js';
import { consolidationServices } from './support/services.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
let services: ConsolidationServices;
beforeAll(async () => {
  world = await openReadWorld('queries_assess');
  services = await consolidationServices();
});
afterAll(async () => world?.close());

const fact = (key: string, value: string, kind = 'profile') => ({
  kind,
  key,
  value: { type: 'text', text: value },
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
});

async function published(subject: string, entries: Array<Record<string, unknown>>): Promise<{ artifactId: string; ids: string[] }> {
  const ids: string[] = [];
  for (const e of entries) ids.push(ok(await recordMemory(world.t.ledger, ctx(subject), e)).memoryId);
  const run = ok(await runConsolidation(world.t.ledger, services, ctx(subject)));
  if (run.status !== 'switched') throw new Error(run.status);
  return { artifactId: run.prepare.artifactId, ids };
}

async function assessed(artifactId: string, extra: { tenant?: string; subject?: string; contract?: Record<string, string> } = {}) {
  await world.catchUpArtifact(extra.tenant ?? 'acme', artifactId);
  return assess(world.read, {
    tenant: extra.tenant ?? 'acme',
    artifactId,
    ...(extra.subject ? { subject: extra.subject } : {}),
    ...(extra.contract ? { contract: extra.contract } : {}),
  });
}

describe('assess', () => {
  it('ready: a current, published artifact whose inputs can all be read and all are stated', async () => {
    const { artifactId } = await published('a-ready', [fact('notification.preference', 'sms'), fact('language', 'zh')]);
    const result = await assessed(artifactId, {
      subject: 'a-ready',
      contract: { promptVersion: 'template-v2', modelSnapshot: 'deterministic-v2' },
    });
    expect(result).toMatchObject({
      status: 'ready',
      findings: [],
      artifact: { subject: 'a-ready', current: true, inputs: 2, selectorVersion: 'selector-v1' },
    });
  });

  it('blocked: another tenant (told nothing about it), or another subject', async () => {
    const { artifactId } = await published('a-blocked', [fact('notification.preference', 'sms')]);
    const foreign = await assessed(artifactId, { tenant: 'globex' });
    expect(foreign).toEqual({
      tenant: 'globex',
      artifactId,
      status: 'blocked',
      findings: [expect.objectContaining({ code: 'not_in_tenant' })],
    });
    expect(await assessed('summary:does-not-exist', { tenant: 'globex' })).toMatchObject({
      status: 'blocked',
      findings: [{ code: 'not_in_tenant' }],
    });
    expect(await assessed(artifactId, { subject: 'someone-else' })).toMatchObject({
      status: 'blocked',
      findings: [{ code: 'subject_mismatch' }],
    });
  });

  it('needs_rehydration: the epoch moved and the artifact is STALE; or the summarizer contract changed', async () => {
    const { artifactId, ids } = await published('a-rehydrate', [fact('notification.preference', 'sms'), fact('language', 'zh')]);
    expect(await assessed(artifactId, { contract: { modelSnapshot: 'gpt-4o-2024-08-06' } })).toMatchObject({
      status: 'needs_rehydration',
      findings: [{ code: 'contract_changed' }],
    });
    ok(await retractMemory(world.t.ledger, ctx('a-rehydrate'), ids[0]!, 'withdrawn'));
    const result = await assessed(artifactId);
    expect(result.status).toBe('needs_rehydration');
    expect(result.findings.map((f) => f.code).sort()).toEqual(['epoch_changed', 'stale']);
  });

  it('needs_evidence: an input was forgotten (its key is gone)', async () => {
    const { artifactId, ids } = await published('a-evidence', [fact('notification.preference', 'sms'), fact('language', 'zh')]);
    ok(await forgetMemory(world.t.ledger, ctx('a-evidence'), ids[1]!, 'asked to forget'));
    const result = await assessed(artifactId);
    expect(result.status).toBe('needs_evidence');
    expect(result.findings).toContainEqual(
      expect.objectContaining({ status: 'needs_evidence', code: 'input_unreadable', memoryId: ids[1] }),
    );
  });

  it('needs_review: an input the output neither states nor discards with a reason', async () => {
    const s = 'a-review';
    const kept = ok(await recordMemory(world.t.ledger, ctx(s), fact('notification.preference', 'sms'))).memoryId;
    const dropped = ok(await recordMemory(world.t.ledger, ctx(s), fact('chat.note', 'asked about weekends', 'episodic'))).memoryId;
    const artifactId = await forceArtifact(world.t.ledger, services, ctx(s), (o) => ({
      ...o,
      claims: o.claims.filter((c) => c.key !== 'chat.note'),
    }));
    const result = await assessed(artifactId);
    expect(result).toMatchObject({ status: 'needs_review', findings: [{ code: 'discard_without_reason', memoryId: dropped }] });
    expect(result.findings.some((f) => f.memoryId === kept)).toBe(false);
  });
});
