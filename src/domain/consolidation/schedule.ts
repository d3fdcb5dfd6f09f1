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
