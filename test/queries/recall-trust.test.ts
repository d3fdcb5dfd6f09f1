// Recall judges sources by their trust as it stands now: a TrustChanged on a
// source ref re-ranks what it said and is reported in the provenance, and a
// ref lowered to untrusted is left out (counted as `untrusted`), in raw
// answers and through a summary alike — also after a rebuild of the
// projection from position 0.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import type { ConsolidationServices } from '../../src/commands/consolidation/services.js';
import { changeTrust } from '../../src/commands/lifecycle.js';
import { recordMemory } from '../../src/commands/record.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { rebuildProjection } from '../../src/projections/index.js';
import { recall, type RecallAnswer } from '../../src/queries/recall/recall.js';
import { consolidationServices } from './support/services.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
let services: ConsolidationServices;
beforeAll(async () => {
  world = await openReadWorld('queries_recall_trust');
  services = await consolidationServices();
});
afterAll(async () => world?.close());

const said = (key: string, text: string, ref: string, type = 'verified_tool_fact') => ({
  kind: 'semantic',
  key,
  value: { type: 'text', text },
  source: { type, refs: [ref] },
});

async function recalled(subject: string): Promise<RecallAnswer> {
  await world.catchUp(ctx(subject));
  return recall(world.read, { tenant: 'acme', subject, maxSensitivity: 'restricted' });
}

const memories = (answer: RecallAnswer) =>
  answer.items.flatMap((i) => (i.type === 'memory' ? [{ id: i.memoryId, trust: i.provenance.trust }] : []));

describe('recall and trust changes', () => {
  it('re-ranks and reports a lowered source, and leaves out an untrusted one', async () => {
    const s = 'trust-raw';
    const crm = ok(await recordMemory(world.t.ledger, ctx(s), said('billing.plan', 'enterprise annual', 'tool://crm/acct-7'))).memoryId;
    const erp = ok(await recordMemory(world.t.ledger, ctx(s), said('billing.currency', 'EUR', 'tool://erp/acct-7'))).memoryId;
    const scraped = ok(
      await recordMemory(world.t.ledger, ctx(s), said('billing.contact', 'ap@acme.example', 'tool://scraper/acct-7')),
    ).memoryId;
    // Same kind and trust: the later entry first.
    expect(memories(await recalled(s)).map((m) => m.id)).toEqual([scraped, erp, crm]);

    ok(await changeTrust(world.t.ledger, ctx(s), 'tool://erp/acct-7', 'model_inference', 'ERP sync found lossy'));
    const lowered = await recalled(s);
    expect(memories(lowered)).toEqual([
      { id: scraped, trust: 'verified_tool_fact' },
      { id: crm, trust: 'verified_tool_fact' },
      { id: erp, trust: 'model_inference' },
    ]);

    ok(await changeTrust(world.t.ledger, ctx(s), 'tool://scraper/acct-7', 'untrusted', 'scraper compromised'));
    const distrusted = await recalled(s);
    expect(memories(distrusted).map((m) => m.id)).toEqual([crm, erp]);
    expect(distrusted.excluded.untrusted).toBe(1);
    expect(JSON.stringify(distrusted)).not.toContain('ap@acme.example');

    // Raised again: back, at the level it has now.
    ok(await changeTrust(world.t.ledger, ctx(s), 'tool://erp/acct-7', 'human_review', 'checked by hand'));
    expect(memories(await recalled(s))[0]).toEqual({ id: erp, trust: 'human_review' });
  });

  it('does not serve a summary claim resting on a source lowered to untrusted, nor the raw entry', async () => {
    const s = 'trust-summary';
    ok(await recordMemory(world.t.ledger, ctx(s), said('refund.window', '30 days', 'tool://policy/refunds')));
    ok(await recordMemory(world.t.ledger, ctx(s), said('refund.channel', 'store credit only', 'tool://wiki/refunds')));
    expect(ok(await runConsolidation(world.t.ledger, services, ctx(s))).status).toBe('switched');
    const before = await recalled(s);
    expect(before.source).toBe('summary');
    expect(JSON.stringify(before)).toContain('store credit only');

    ok(await changeTrust(world.t.ledger, ctx(s), 'tool://wiki/refunds', 'untrusted', 'wiki vandalised'));
    const after = await recalled(s);
    expect(after.source).toBe('raw');
    expect(JSON.stringify(after)).not.toContain('store credit only');
    expect(JSON.stringify(after)).toContain('30 days');
    expect(after.excluded.untrusted).toBe(1);
  });

  it('keeps the same answers after the projection is rebuilt from position 0', async () => {
    const before = await recalled('trust-raw');
    await rebuildProjection(world.read.projections, world.read.eventStore, memoryProjection);
    const after = await recalled('trust-raw');
    // Another recall (its own recallId), the same answer.
    expect({ ...after, now: before.now, recallId: before.recallId }).toEqual(before);
  });
});
