// Decay (issue 18 item 3): a memory's ranking weight halves every half-life
// of its kind without reinforcement, weight = 0.5 ^ (age / halfLife), age
// counted from the last confirmation or use (else the record) to `now`,
// which the caller passes in. A kind without a half-life keeps weight 1.
// Value, what capacity eviction keeps: weight x confidence x usefulness.
import type { Instant } from '../values/instant.js';
import { reinforcedAt, type LifecycleInput } from './input.js';

/** Seconds since the memory was last reinforced, at `now` (never negative). */
export function unreinforcedSeconds(usage: LifecycleInput, now: Instant): number {
  return Math.max(0, (Date.parse(now) - Date.parse(reinforcedAt(usage))) / 1000);
}

/** The one decay formula: 0.5 ^ (age / halfLife); no half-life (null or Infinity): 1. */
export function halfLifeFactor(ageSeconds: number, halfLifeSeconds: number | null): number {
  if (halfLifeSeconds === null || !Number.isFinite(halfLifeSeconds)) return 1;
  return 0.5 ** (Math.max(0, ageSeconds) / halfLifeSeconds);
}

export function decayWeight(usage: LifecycleInput, halfLifeSeconds: number | null, now: Instant): number {
  return halfLifeFactor(unreinforcedSeconds(usage, now), halfLifeSeconds);
}

/** Confidence assumed when a memory states none (as retrieval does). */
export const UNKNOWN_CONFIDENCE = 0.5;

/** weight x confidence x (1 + used + confirmed) / (1 + ignored): higher is worth keeping. */
export function memoryValue(usage: LifecycleInput, halfLifeSeconds: number | null, now: Instant): number {
  const usefulness = (1 + usage.usedCount + usage.confirmedCount) / (1 + usage.ignoredCount);
  return decayWeight(usage, halfLifeSeconds, now) * (usage.confidence ?? UNKNOWN_CONFIDENCE) * usefulness;
}
