// The token budget (DESIGN section 5): over it, low-value entries move to a
// cold tier — recorded on the artifact as discards with a reason, still
// inputs, still retrievable raw — instead of truncating JSON or dropping open
// items. Must-preserve facts, open items and conflict sides always stay hot.
// Costs are those of the compressed lines (statements.ts): an entry's words
// cost only the sentences that hold its facts, so far more entries stay hot
// than their raw text would allow.
import type { ConsolidationInput } from './input.js';
import { compareText } from './must-preserve.js';
import { inputLine } from './statements.js';

export type CountTokens = (text: string) => number;

export const COLD_TIER_REASONS = ['over_token_budget'] as const;
export type ColdTierReason = (typeof COLD_TIER_REASONS)[number];

export interface ColdTierPlan {
  readonly hot: readonly ConsolidationInput[];
  readonly cold: ReadonlyArray<{ readonly memoryId: string; readonly reason: ColdTierReason }>;
  /** Estimated tokens of the hot tier's templated lines. */
  readonly hotTokens: number;
}

const KIND_WEIGHT: Readonly<Record<ConsolidationInput['kind'], number>> = {
  constraint: 5,
  permission: 5,
  procedural: 4,
  semantic: 3,
  profile: 3,
  episodic: 1,
};

/** Higher is kept first: kind, corroborations, confidence, then the most recent. */
function compareValue(a: ConsolidationInput, b: ConsolidationInput): number {
  return (
    KIND_WEIGHT[b.kind] - KIND_WEIGHT[a.kind] ||
    b.corroborations - a.corroborations ||
    (b.confidence ?? 0.5) - (a.confidence ?? 0.5) ||
    b.sequence - a.sequence ||
    compareText(a.memoryId, b.memoryId)
  );
}

export function planColdTier(
  inputs: readonly ConsolidationInput[],
  essentialIds: ReadonlySet<string>,
  budget: number,
  countTokens: CountTokens,
): ColdTierPlan {
  const cost = (input: ConsolidationInput) => countTokens(inputLine(input)) + 1;
  let used = 0;
  const hotIds = new Set<string>();
  for (const input of inputs) {
    if (!essentialIds.has(input.memoryId)) continue;
    hotIds.add(input.memoryId);
    used += cost(input);
  }
  const candidates = inputs.filter((i) => !essentialIds.has(i.memoryId)).sort(compareValue);
  const cold: Array<{ memoryId: string; reason: ColdTierReason }> = [];
  for (const input of candidates) {
    const c = cost(input);
    if (used + c <= budget) {
      hotIds.add(input.memoryId);
      used += c;
    } else {
      cold.push({ memoryId: input.memoryId, reason: 'over_token_budget' });
    }
  }
  cold.sort((a, b) => compareText(a.memoryId, b.memoryId));
  return { hot: inputs.filter((i) => hotIds.has(i.memoryId)), cold, hotTokens: used };
}
