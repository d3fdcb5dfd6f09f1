// What the lifecycle sweeper does to one subject at `now`, as a pure
// function of its live memories and the tenant's lifecycle policy:
//   - capacity (seed 004 layer 2): a kind holding more live memories than its
//     capacity archives the surplus, lowest value first (demoted before
//     active, then lower memoryValue, then longer unreinforced, then older);
//   - demotion: an active memory is demoted by the first rule it meets —
//     `unreinforced` (unreinforced longer than its kind allows),
//     `low_confidence` (confidence below the floor and unreinforced for the
//     grace period), `rarely_useful` (ignored often, seldom used or confirmed).
// A memory archived here is not also demoted. Deterministic: ties break by
// sequence, so the same facts always give the same plan.
import { MEMORY_KINDS, type MemoryKind } from '../entry/vocabulary.js';
import type { Instant } from '../values/instant.js';
import { memoryValue, unreinforcedSeconds } from './decay.js';
import type { LifecyclePolicy } from './policy.js';
import { reinforcedAt, type LifecycleInput } from './input.js';

export const DEMOTION_REASONS = ['unreinforced', 'low_confidence', 'rarely_useful'] as const;
export type DemotionReason = (typeof DEMOTION_REASONS)[number];

export interface LiveMemory {
  readonly memoryId: string;
  readonly sequence: number;
  readonly demoted: boolean;
  readonly usage: LifecycleInput;
}

export interface Demotion {
  readonly memoryId: string;
  readonly reason: DemotionReason;
  /** The policy field that decided, e.g. `demotion.unreinforcedFor.episodic`. */
  readonly rule: string;
  /** The instant the memory counts as unreinforced since. */
  readonly lastReinforcedAt: Instant;
}

export interface Archival {
  readonly memoryId: string;
  /** e.g. `capacity.episodic`. */
  readonly rule: string;
  /** Its memoryValue at `now`: why it went first. */
  readonly value: number;
}

export interface LifecyclePlan {
  readonly demote: readonly Demotion[];
  readonly archive: readonly Archival[];
}

export function demotionOf(memory: LiveMemory, policy: LifecyclePolicy, now: Instant): Demotion | undefined {
  const { usage } = memory;
  const idle = unreinforcedSeconds(usage, now);
  const since = reinforcedAt(usage);
  const limit = policy.demotion.unreinforcedSeconds[usage.kind];
  if (limit !== null && idle >= limit)
    return { memoryId: memory.memoryId, reason: 'unreinforced', rule: `demotion.unreinforcedFor.${usage.kind}`, lastReinforcedAt: since };
  const low = policy.demotion.lowConfidence;
  if (low && usage.confidence !== null && usage.confidence < low.below && idle >= low.afterSeconds)
    return { memoryId: memory.memoryId, reason: 'low_confidence', rule: 'demotion.lowConfidence', lastReinforcedAt: since };
  const rare = policy.demotion.rarelyUseful;
  if (rare && usage.ignoredCount >= rare.ignoredAtLeast) {
    const useful = usage.usedCount + usage.confirmedCount;
    if (useful / (useful + usage.ignoredCount) < rare.usefulShareBelow)
      return { memoryId: memory.memoryId, reason: 'rarely_useful', rule: 'demotion.rarelyUseful', lastReinforcedAt: since };
  }
  return undefined;
}

function surplus(members: readonly LiveMemory[], kind: MemoryKind, policy: LifecyclePolicy, now: Instant): Archival[] {
  const capacity = policy.capacity[kind];
  if (capacity === null || members.length <= capacity) return [];
  const half = policy.halfLifeSeconds[kind];
  const ranked = members
    .map((m) => ({ m, value: memoryValue(m.usage, half, now), since: reinforcedAt(m.usage) }))
    .sort(
      (a, b) =>
        Number(b.m.demoted) - Number(a.m.demoted) ||
        a.value - b.value ||
        (a.since < b.since ? -1 : a.since > b.since ? 1 : 0) ||
        a.m.sequence - b.m.sequence,
    );
  return ranked.slice(0, members.length - capacity).map(({ m, value }) => ({ memoryId: m.memoryId, rule: `capacity.${kind}`, value }));
}

export function planLifecycle(live: readonly LiveMemory[], policy: LifecyclePolicy, now: Instant): LifecyclePlan {
  const archive = MEMORY_KINDS.flatMap((kind) =>
    surplus(
      live.filter((m) => m.usage.kind === kind),
      kind,
      policy,
      now,
    ),
  ).sort((a, b) => sequenceOf(live, a.memoryId) - sequenceOf(live, b.memoryId));
  const archived = new Set(archive.map((a) => a.memoryId));
  const demote = [...live]
    .sort((a, b) => a.sequence - b.sequence)
    .filter((m) => !m.demoted && !archived.has(m.memoryId))
    .flatMap((m) => demotionOf(m, policy, now) ?? []);
  return { demote, archive };
}

const sequenceOf = (live: readonly LiveMemory[], memoryId: string) => live.find((m) => m.memoryId === memoryId)?.sequence ?? 0;
