// The token budget's cold tier, STALE detection and the scheduler's rule.
import { beforeAll, describe, expect, it } from 'vitest';
import { planColdTier, type CountTokens } from '../../src/domain/consolidation/cold-tier.js';
import { summarizeDeterministically } from '../../src/domain/consolidation/deterministic-summary.js';
import { extractMustPreserve } from '../../src/domain/consolidation/must-preserve.js';
import { consolidationDue } from '../../src/domain/consolidation/schedule.js';
import { gateOutput, generationRequest, takeSnapshot } from '../../src/domain/consolidation/snapshot.js';
import { artifactStaleness, parentMayServe } from '../../src/domain/consolidation/staleness.js';
import type { Value } from '../../src/domain/values/value.js';
import { loadTokenCounter } from '../../src/infrastructure/summarizer/tokenizer.js';
import { record, run, runAll, sealed, T2 } from '../domain/fixtures.js';
import { bool, conflict, input, num, text } from './fixtures.js';
import { spelled } from './support.js';

let countTokens: CountTokens;
beforeAll(async () => {
  countTokens = await loadTokenCounter();
});

describe('the cold tier', () => {
  it('over the budget, low-value entries become recorded discards; must-preserve facts, open items and conflict sides stay', () => {
    const chatter = Array.from({ length: 60 }, (_, i) =>
      input(`m-c${i}`, `chat.t${i}`, text(`the user talked about the weather for a while (turn ${spelled(i)})`), { kind: 'episodic' }),
    );
    const procedure = input('m-p', 'howto.refund', text('ask for the order id first'), { kind: 'procedural', corroborations: 3 });
    const essentials = [
      input('m-n', 'contact.phone_calls', bool(true), { polarity: 'negated' }),
      input('m-w', 'order.wait', num('72', 'h')),
      input('m-t', 'task.refund.ORD-A1B2C3D4', text('awaits approval')),
      input('m-a', 'decision.database', text('postgres'), { openConflictIds: ['c-1'] }),
      input('m-b', 'decision.database', text('mysql'), { openConflictIds: ['c-1'] }),
    ];
    const inputs = [...chatter, procedure, ...essentials];
    const essentialIds = new Set(extractMustPreserve(inputs).map((f) => f.memoryId));
    expect([...essentialIds].sort()).toEqual(['m-a', 'm-b', 'm-n', 'm-t', 'm-w']);
    const plan = planColdTier(inputs, essentialIds, 80, countTokens);
    const hot = new Set(plan.hot.map((i) => i.memoryId));
    for (const id of essentialIds) expect(hot.has(id)).toBe(true);
    // The most valuable low-value entry is kept first; the rest are discarded with a reason.
    expect(hot.has('m-p')).toBe(true);
    expect(plan.cold.length).toBeGreaterThan(40);
    expect(plan.cold.every((d) => d.reason === 'over_token_budget' && !essentialIds.has(d.memoryId))).toBe(true);
    expect(plan.hot.length + plan.cold.length).toBe(inputs.length);
    // Even a budget too small for the essentials drops none of them.
    const tiny = planColdTier(inputs, essentialIds, 1, countTokens);
    expect(tiny.hot.map((i) => i.memoryId).sort()).toEqual([...essentialIds].sort());
    const output = summarizeDeterministically({ inputs: tiny.hot, conflicts: [conflict('c-1', [essentials[3]!, essentials[4]!])] });
    expect(output.openItems.map((o) => o.derivedFrom)).toEqual([['m-t']]);
    expect(output.summary).toContain('Unresolved conflicts');
  });

  it('a snapshot records the discards, and its deterministic summary passes the gate whatever the budget', () => {
    const values = new Map<string, Value>();
    const commands = Array.from({ length: 40 }, (_, i) => {
      const value: Value = i % 5 === 0 ? { type: 'number', amount: String(i), unit: 'kg' } : { type: 'text', text: `note ${spelled(i)}` };
      values.set(`m-${i}`, value);
      return record(`m-${i}`, sealed({ kind: i % 5 === 0 ? 'semantic' : 'episodic', key: `k.n${i}`, value }));
    });
    const { state } = runAll(commands);
    for (const budget of [1, 40, 100_000]) {
      const snapshot = takeSnapshot(state, (e) => ({ value: values.get(e.memoryId)! }), {
        tenant: 'acme',
        subject: 'u',
        now: T2,
        tokenBudget: budget,
        countTokens,
        promptVersion: 'p',
        modelSnapshot: 'm',
      });
      expect(snapshot.manifest.inputs).toHaveLength(40);
      expect(snapshot.hot.length + snapshot.coldTier.length).toBe(40);
      expect(snapshot.coldTier.length > 0).toBe(budget < 100_000);
      const output = summarizeDeterministically(generationRequest(snapshot));
      expect(gateOutput(snapshot, output, countTokens)).toMatchObject({ passed: true, mustPreserveCount: 8 });
    }
  });
});

describe('STALE and the scheduler', () => {
  const base = () => {
    const built = runAll([
      record('m-1', sealed({ key: 'k.a', value: { type: 'text', text: 'a' }, source: { type: 'user_assertion', refs: ['msg://a'] } })),
      record('m-2', sealed({ key: 'k.b', value: { type: 'text', text: 'b' } })),
    ]);
    const snapshot = takeSnapshot(built.state, () => ({ value: { type: 'text', text: 'x' } }), {
      tenant: 'acme',
      subject: 'u',
      now: T2,
      tokenBudget: 1000,
      countTokens,
      promptVersion: 'p',
      modelSnapshot: 'm',
    });
    return {
      state: run(built.state, { type: 'SwitchSummaryAlias', manifest: snapshot.manifest, now: T2 }).state,
      manifest: snapshot.manifest,
    };
  };

  it('an artifact is STALE when an input is retracted or its source tainted, and then cannot serve as a parent', () => {
    const { state, manifest } = base();
    expect(artifactStaleness(manifest, state)).toEqual({ stale: false });
    expect(parentMayServe(state, manifest)).toBe(true);
    const retracted = run(state, { type: 'RetractMemory', memoryId: 'm-2', reason: 'no', now: T2 }).state;
    expect(artifactStaleness(manifest, retracted)).toMatchObject({ stale: true, memoryId: 'm-2', cause: 'not_active' });
    expect(parentMayServe(retracted, manifest)).toBe(false);
    const tainted = run(state, {
      type: 'EscalateTaintPolicy',
      refPatterns: ['msg://a'],
      sourceTypes: [],
      reason: 'prompt injection',
      now: T2,
    }).state;
    expect(artifactStaleness(manifest, tainted)).toMatchObject({ stale: true, memoryId: 'm-1', cause: 'tainted' });
  });

  it('a subject is due when never consolidated (at the threshold), behind the epoch, or N entries past its coverage', () => {
    const { state } = base();
    expect(consolidationDue(state, 1)).toBeNull();
    expect(consolidationDue(runAll([record('m-9', sealed({ key: 'k.z' }))]).state, 1)).toBe('never_consolidated');
    expect(consolidationDue(runAll([record('m-9', sealed({ key: 'k.z' }))]).state, 2)).toBeNull();
    expect(consolidationDue(run(state, { type: 'RetractMemory', memoryId: 'm-1', reason: 'no', now: T2 }).state, 100)).toBe('behind_epoch');
    const longer = runAll([record('m-3', sealed({ key: 'k.c' })), record('m-4', sealed({ key: 'k.d' }))], state).state;
    expect(consolidationDue(longer, 3)).toBeNull();
    expect(consolidationDue(longer, 2)).toBe('new_entries');
  });
});
