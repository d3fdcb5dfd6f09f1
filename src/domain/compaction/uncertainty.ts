// Uncertain inputs (seed 002: 未知项保持 uncertain): a low confidence or an
// unverified model inference. Every claim deriving from one must say it is
// uncertain, and the record anchors it with status `uncertain` and a loss
// check of its own. (Open conflicts are uncertain too; their sides are
// checked by the conflict rules of the gate.)
import type { ConsolidationInput } from '../consolidation/input.js';

/** Below this confidence an entry is not stated as settled. */
export const UNCERTAIN_BELOW_CONFIDENCE = 0.5;

export type UncertainCause = 'low_confidence' | 'model_inference';

export function uncertaintyOf(input: Pick<ConsolidationInput, 'confidence' | 'source'>): UncertainCause | undefined {
  if (input.confidence !== undefined && input.confidence < UNCERTAIN_BELOW_CONFIDENCE) return 'low_confidence';
  if (input.source.type === 'model_inference') return 'model_inference';
  return undefined;
}
