import { describe, expect, it } from 'vitest';
import { decayWeight, memoryValue } from '../../src/domain/lifecycle/decay.js';
import { planLifecycle, type LiveMemory } from '../../src/domain/lifecycle/plan.js';
import {
  DEFAULT_LIFECYCLE_POLICY,
  describeLifecyclePolicy,
  parseLifecyclePolicy,
  type LifecyclePolicy,
} from '../../src/domain/lifecycle/policy.js';
import { lifecycleInputOf } from '../../src/domain/lifecycle/input.js';

const DAY = 86_400_000;
const T0 = '2026-01-01T00:00:00.000Z';
const at = (days: number) => new Date(Date.parse(T0) + days * DAY).toISOString();
const policy = DEFAULT_LIFECYCLE_POLICY.policy;

function live(
  memoryId: string,
  sequence: number,
  over: Partial<Parameters<typeof lifecycleInputOf>[0]> & { demoted?: boolean } = {},
): LiveMemory {
  const { demoted = false, ...usage } = over;
  return { memoryId, sequence, demoted, usage: lifecycleInputOf({ kind: 'episodic', recordedAt: T0, ...usage }) };
}

describe('decay', () => {
  const usage = lifecycleInputOf({ kind: 'episodic', recordedAt: T0, confidence: 0.8 });
  it('halves the weight every half-life of the kind, counted from the record', () => {
    expect(decayWeight(usage, 90 * 86_400, T0)).toBe(1);
    expect(decayWeight(usage, 90 * 86_400, at(90))).toBeCloseTo(0.5, 10);
    expect(decayWeight(usage, 90 * 86_400, at(180))).toBeCloseTo(0.25, 10);
  });
  it('counts from the last reinforcement when later than the record', () => {
    const reinforced = lifecycleInputOf({ kind: 'episodic', recordedAt: T0, lastReinforcedAt: at(360) });
    expect(decayWeight(reinforced, 90 * 86_400, at(365))).toBeGreaterThan(decayWeight(usage, 90 * 86_400, at(365)));
  });
  it('a kind without a half-life does not decay', () => {
    expect(decayWeight(usage, null, at(3650))).toBe(1);
  });
  it('value weighs confidence and usefulness', () => {
    const used = lifecycleInputOf({ kind: 'episodic', recordedAt: T0, confidence: 0.8, usedCount: 3 });
    const ignored = lifecycleInputOf({ kind: 'episodic', recordedAt: T0, confidence: 0.8, ignoredCount: 3 });
    expect(memoryValue(used, 90 * 86_400, at(10))).toBeGreaterThan(memoryValue(usage, 90 * 86_400, at(10)));
    expect(memoryValue(ignored, 90 * 86_400, at(10))).toBeLessThan(memoryValue(usage, 90 * 86_400, at(10)));
  });
});

describe('planLifecycle', () => {
  it('demotes what is unreinforced longer than its kind allows, and nothing else', () => {
    const memories = [
      live('old', 1),
      live('fresh', 2, { recordedAt: at(200) }),
      live('reinforced', 3, { lastReinforcedAt: at(300) }),
      live('rule', 4, { kind: 'constraint' }),
    ];
    const plan = planLifecycle(memories, policy, at(400));
    expect(plan.demote).toEqual([
      { memoryId: 'old', reason: 'unreinforced', rule: 'demotion.unreinforcedFor.episodic', lastReinforcedAt: T0 },
    ]);
    expect(plan.archive).toEqual([]);
    expect(planLifecycle(memories, policy, at(364)).demote).toEqual([]);
  });

  it('demotes low confidence after its grace period, and the rarely useful', () => {
    const memories = [
      live('unsure', 1, { kind: 'semantic', confidence: 0.1 }),
      live('sure', 2, { kind: 'semantic', confidence: 0.9 }),
      live('ignored', 3, { kind: 'semantic', ignoredCount: 6, usedCount: 1 }),
      live('useful', 4, { kind: 'semantic', ignoredCount: 6, usedCount: 4 }),
    ];
    expect(planLifecycle(memories, policy, at(29)).demote.map((d) => d.memoryId)).toEqual(['ignored']);
    const later = planLifecycle(memories, policy, at(31)).demote;
    expect(later.map((d) => [d.memoryId, d.reason])).toEqual([
      ['unsure', 'low_confidence'],
      ['ignored', 'rarely_useful'],
    ]);
  });

  it('passes over what is demoted already', () => {
    expect(planLifecycle([live('old', 1, { demoted: true })], policy, at(400)).demote).toEqual([]);
  });

  it('archives the surplus over capacity, lowest value first (demoted first), and does not also demote it', () => {
    const small: LifecyclePolicy = { ...policy, capacity: { ...policy.capacity, episodic: 2 } };
    const memories = [
      live('a', 1, { confidence: 0.9, recordedAt: at(100) }),
      live('b', 2, { confidence: 0.2, recordedAt: at(100) }),
      live('c', 3, { confidence: 0.9, recordedAt: at(100), demoted: true }),
      live('d', 4, { confidence: 0.6, recordedAt: at(100) }),
      live('e', 5, { confidence: 0.9, recordedAt: at(100), kind: 'semantic' }),
    ];
    const plan = planLifecycle(memories, small, at(110));
    expect(plan.archive.map((a) => a.memoryId)).toEqual(['b', 'c']);
    expect(plan.archive.every((a) => a.rule === 'capacity.episodic')).toBe(true);
    const old = planLifecycle([live('x', 1), live('y', 2, { recordedAt: at(1) }), live('z', 3, { recordedAt: at(2) })], small, at(400));
    expect(old.archive.map((a) => a.memoryId)).toEqual(['x']);
    expect(old.demote.map((d) => d.memoryId)).toEqual(['y', 'z']);
  });
});

describe('the lifecycle policy document', () => {
  it('fills the kinds a document leaves out with the defaults, and reads back what it prints', () => {
    const parsed = parseLifecyclePolicy({ halfLives: { episodic: 'P10D' }, capacity: { episodic: 5, profile: 50 } });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value.halfLifeSeconds.episodic).toBe(10 * 86_400);
    expect(parsed.value.halfLifeSeconds.semantic).toBe(policy.halfLifeSeconds.semantic);
    expect(parsed.value.capacity).toMatchObject({ episodic: 5, profile: 50, semantic: null });
    const again = parseLifecyclePolicy(describeLifecyclePolicy(parsed.value));
    expect(again).toEqual(parsed);
  });

  it.each([
    [{ capacity: { episodic: 0 } }, 'policy.capacity.episodic'],
    [{ halfLives: { episodic: 'P1M' } }, 'policy.halfLives.episodic'],
    [{ halfLives: { gossip: 'P1D' } }, 'policy.halfLives.gossip'],
    [{ demotion: { lowConfidence: { below: 2, after: 'P1D' } } }, 'policy.demotion.lowConfidence.below'],
    [{ cap: {} }, 'policy.cap'],
  ])('names the bad field of %j', (document, field) => {
    const parsed = parseLifecyclePolicy(document);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.field).toBe(field);
  });
});
