// What the lifecycle rules know of one memory's use: the input of decay,
// demotion and capacity. It is filled in one place, lifecycleInputOf, from
// a memory's record (the subject state's entry with its feedback counts, or a
// memory read model row), so the sweeper and recall's ranking judge alike.
// (The feedback counts themselves are src/domain/usage's MemoryUsage.)
import type { MemoryKind } from '../entry/vocabulary.js';
import type { Instant } from '../values/instant.js';

export interface LifecycleInput {
  readonly kind: MemoryKind;
  /** The confidence the memory states (null: none stated). */
  readonly confidence: number | null;
  /** When its current version was recorded. */
  readonly recordedAt: Instant;
  /** When it was last confirmed or used, if ever. */
  readonly lastReinforcedAt?: Instant;
  readonly usedCount: number;
  readonly confirmedCount: number;
  readonly ignoredCount: number;
}

/** What a memory record (the subject state's entry, a read model row) offers; the feedback fields are optional until they exist. */
export interface UsageSource {
  readonly kind: MemoryKind;
  readonly confidence?: number | null;
  readonly recordedAt: Instant;
  readonly lastReinforcedAt?: Instant | null;
  readonly usedCount?: number;
  readonly confirmedCount?: number;
  readonly ignoredCount?: number;
}

export function lifecycleInputOf(source: UsageSource): LifecycleInput {
  return {
    kind: source.kind,
    confidence: source.confidence ?? null,
    recordedAt: source.recordedAt,
    ...(source.lastReinforcedAt ? { lastReinforcedAt: source.lastReinforcedAt } : {}),
    usedCount: source.usedCount ?? 0,
    confirmedCount: source.confirmedCount ?? 0,
    ignoredCount: source.ignoredCount ?? 0,
  };
}

/** Decay and "unreinforced" count from here: the last confirmation or use, else the record. */
export function reinforcedAt(usage: LifecycleInput): Instant {
  return usage.lastReinforcedAt !== undefined && usage.lastReinforcedAt > usage.recordedAt ? usage.lastReinforcedAt : usage.recordedAt;
}
