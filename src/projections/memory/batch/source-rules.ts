// When a change to how a source is trusted makes an artifact built on it
// STALE (the rules are listed in artifact-graph.ts).
import type { SubjectEventData } from '../../../domain/events/subject-events.js';
import { trustRank, type TrustLevel } from '../../../domain/entry/source.js';
import { refMatchesPattern } from '../../../domain/subject/trust.js';
import type { Cause, InputRef } from './artifact-rows.js';

/** One TaintPolicyEscalated: what it added to the policy. */
export interface Escalation {
  readonly refPatterns: readonly string[];
  readonly sourceTypes: readonly string[];
  readonly cause: Cause;
}

/** The input's source matches what the escalation added (as the decider's isTainted judges a source). */
export function tainted(escalation: Escalation, input: InputRef): boolean {
  if (input.sourceType !== null && escalation.sourceTypes.includes(input.sourceType)) return true;
  return input.sourceRefs.some((ref) => escalation.refPatterns.some((pattern) => refMatchesPattern(ref, pattern)));
}

/** The change puts one of the input's source refs below the trust it had: the override replaced, else the trust it was recorded with. */
export function trustLowered(change: SubjectEventData<'TrustChanged'>, input: InputRef): boolean {
  if (!input.sourceRefs.includes(change.sourceRef)) return false;
  const before = change.previousLevel ?? (input.trust as TrustLevel | null);
  return before !== null && trustRank(change.level) < trustRank(before);
}
