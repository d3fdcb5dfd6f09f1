// The loss gate (DESIGN section 5; seed 000 "保真门禁"): a summary is
// published only if it loses nothing. Checked deterministically against the
// must-preserve set and the inputs, one typed reason per failure. Messages
// name keys and ids only, never values (reasons are stored in clear).
import { canonicalValueJson } from '../canonical/canonical-value.js';
import type { GateFailure, GateFailureCode } from '../events/artifact-events.js';
import type { CountTokens } from './cold-tier.js';
import { checkClaims } from './gate-claims.js';
import { checkFacts } from './gate-facts.js';
import { checkServedWords } from './gate-words.js';
import type { ConflictRef, ConsolidationInput } from './input.js';
import { mustPreserveCount, type MustPreserveFact } from './must-preserve.js';
import type { SummarizerOutput } from './output.js';
import { uncertaintyOf } from '../compaction/uncertainty.js';

export interface GateCheck {
  /** Every input of the manifest (hot and cold). */
  readonly inputs: readonly ConsolidationInput[];
  readonly mustPreserve: readonly MustPreserveFact[];
  /** The subject's open conflicts at the snapshot. */
  readonly conflicts: readonly ConflictRef[];
  readonly output: SummarizerOutput;
  /** The summary text may not exceed this many tokens. */
  readonly summaryTokenAllowance: number;
  readonly countTokens: CountTokens;
}

export type GateResult =
  { readonly passed: true; readonly mustPreserveCount: number } | { readonly passed: false; readonly reasons: readonly GateFailure[] };

export function checkGate(check: GateCheck): GateResult {
  const reasons = new Reasons();
  const inputs = new Map(check.inputs.map((i) => [i.memoryId, i]));
  checkFacts(check.mustPreserve, check.output, reasons);
  checkClaims(inputs, check.output, reasons);
  checkServedWords(check.inputs, check.output, reasons);
  checkConflicts(check.conflicts, inputs, check.output, reasons);
  checkUncertainty(inputs, check.output, reasons);
  const tokens = check.countTokens(check.output.summary);
  if (tokens > check.summaryTokenAllowance) {
    reasons.add({ code: 'over_budget', message: `the summary text has ${tokens} tokens, the allowance is ${check.summaryTokenAllowance}` });
  }
  const list = reasons.list();
  return list.length === 0 ? { passed: true, mustPreserveCount: mustPreserveCount(check.mustPreserve) } : { passed: false, reasons: list };
}

/** The conflict set must be exactly the open conflicts, and no claim may state one side as settled. */
function checkConflicts(
  conflicts: readonly ConflictRef[],
  inputs: ReadonlyMap<string, ConsolidationInput>,
  output: SummarizerOutput,
  reasons: Reasons,
): void {
  const expected = new Set(conflicts.map((c) => c.conflictId));
  const stated = new Set(output.conflicts);
  for (const id of [...expected].sort()) {
    if (!stated.has(id)) reasons.add({ code: 'conflicts_differ', message: `unresolved conflict ${id} is not listed`, conflictId: id });
  }
  for (const id of [...stated].sort()) {
    if (!expected.has(id))
      reasons.add({ code: 'conflicts_differ', message: `${id} is listed but is not an open conflict`, conflictId: id });
  }
  for (const conflict of conflicts) {
    const members = new Set(conflict.memoryIds.filter((id) => inputs.has(id)));
    for (const claim of output.claims) {
      const sides = claim.derivedFrom.filter((id) => members.has(id));
      if (sides.length === 0) continue;
      const marked = claim.conflictIds?.includes(conflict.conflictId) ?? false;
      const merged = new Set(sides.map((id) => statementOf(inputs.get(id)!))).size > 1;
      if (!marked || merged) {
        reasons.add({
          code: 'conflict_settled',
          message: merged
            ? `a claim on ${claim.key} merges the disagreeing sides of ${conflict.conflictId} into one statement`
            : `a claim on ${claim.key} states a side of ${conflict.conflictId} without marking it unresolved`,
          conflictId: conflict.conflictId,
          claimKey: claim.key,
        });
      }
    }
  }
}

/** A claim deriving from an uncertain input must say so: an unknown is never stated as settled (seed 002). */
function checkUncertainty(inputs: ReadonlyMap<string, ConsolidationInput>, output: SummarizerOutput, reasons: Reasons): void {
  for (const claim of output.claims) {
    if (claim.uncertain) continue;
    for (const memoryId of claim.derivedFrom) {
      const input = inputs.get(memoryId);
      const cause = input ? uncertaintyOf(input) : undefined;
      if (!cause) continue;
      reasons.add({
        code: 'uncertainty_settled',
        message: `a claim on ${claim.key} states ${memoryId} (${cause.replace('_', ' ')}) as settled instead of uncertain`,
        memoryId,
        claimKey: claim.key,
      });
    }
  }
}

function statementOf(input: ConsolidationInput): string {
  return JSON.stringify([canonicalValueJson(input.value), input.polarity]);
}

/** Collects failures once each (same code, memory, conflict, claim key, fact kind and span). */
export class Reasons {
  private readonly seen = new Map<string, GateFailure>();
  add(failure: GateFailure & { code: GateFailureCode }): void {
    const span = failure.span ? [failure.span.field, failure.span.start, failure.span.end] : [];
    const id = JSON.stringify([
      failure.code,
      failure.memoryId ?? '',
      failure.conflictId ?? '',
      failure.claimKey ?? '',
      failure.factKind ?? '',
      span,
    ]);
    if (!this.seen.has(id)) this.seen.set(id, failure);
  }
  list(): GateFailure[] {
    return [...this.seen.values()];
  }
}
