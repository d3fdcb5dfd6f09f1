// When a subject is due for consolidation (the scheduler's rule): enough new
// entries since the alias's coverage, or the alias is behind the inputEpoch
// (every cause of STALE — retraction, supersession, expiry, erasure, taint —
// advances the epoch, so a STALE alias is always behind it).
import type { SubjectState } from '../subject/state.js';

export type DueReason = 'never_consolidated' | 'behind_epoch' | 'new_entries';

export function consolidationDue(state: SubjectState, threshold: number): DueReason | null {
  if (state.forgotten || state.highWaterMark === 0) return null;
  const alias = state.alias;
  if (!alias) return state.highWaterMark >= threshold ? 'never_consolidated' : null;
  if (alias.sourceEpoch !== state.inputEpoch) return 'behind_epoch';
  if (state.highWaterMark - alias.coversThrough >= threshold) return 'new_entries';
  return null;
}

/**
 * Off-peak consolidation (seed 004: consolidation is work that is not in a
 * hurry, best run in quiet periods, in batches): while the service is busy
 * serving requests, a due subject waits, at most `maxDeferMs` from when it
 * was first found due (then it runs anyway, so it never waits forever);
 * meanwhile its new entries gather, and one run covers what several would
 * have. 0 runs every due subject at once.
 */
export function consolidationRunsNow(dueSinceMs: number, nowMs: number, busy: boolean, maxDeferMs: number): boolean {
  return !busy || nowMs - dueSinceMs >= maxDeferMs;
}
