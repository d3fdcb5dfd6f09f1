// Whether a rule's conditions hold for a write. All given conditions must
// hold; a list condition holds when any of its items does. Source type is
// the one granted after the credential bound; sensitivity the effective one;
// namespaces match the subject id written to.
import type { SourceType } from '../entry/source.js';
import { sensitivityRank, type MemoryKind, type Sensitivity } from '../entry/vocabulary.js';
import { kindMatches, type Detection } from './detection.js';
import type { Origin } from './origin.js';
import type { RuleCondition } from './policy-document.js';
import type { WriteMark } from './write-marks.js';
import { matchesPattern } from '../namespace/pattern.js';

export interface WriteFacts {
  readonly kind: MemoryKind;
  readonly key: string;
  readonly sourceType: SourceType;
  readonly origin: Origin;
  readonly sensitivity: Sensitivity;
  readonly detections: readonly Detection[];
  readonly marks: readonly WriteMark[];
  /** The subject written to; absent (a bare evaluation): no namespace condition holds. */
  readonly subject?: string;
}

/** `p.*` matches the key p and every key under it; `*` matches any key. */
export function keyMatches(key: string, pattern: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.endsWith('.*')) return key === pattern;
  const prefix = pattern.slice(0, -2);
  return key === prefix || key.startsWith(`${prefix}.`);
}

/** The detections the condition's patterns select (all, when it names none). */
export function selectedDetections(condition: RuleCondition, detections: readonly Detection[]): readonly Detection[] {
  const patterns = condition.detections;
  return patterns === undefined ? detections : detections.filter((d) => patterns.some((p) => kindMatches(d.kind, p)));
}

export function conditionHolds(condition: RuleCondition, facts: WriteFacts): boolean {
  if (condition.kinds && !condition.kinds.includes(facts.kind)) return false;
  if (condition.sourceTypes && !condition.sourceTypes.includes(facts.sourceType)) return false;
  if (condition.origin && condition.origin !== facts.origin) return false;
  if (condition.sensitivityAtLeast && sensitivityRank(facts.sensitivity) < sensitivityRank(condition.sensitivityAtLeast)) return false;
  if (condition.detections && selectedDetections(condition, facts.detections).length === 0) return false;
  if (condition.marks && !condition.marks.some((mark) => facts.marks.includes(mark))) return false;
  if (condition.keys && !condition.keys.some((pattern) => keyMatches(facts.key, pattern))) return false;
  if (condition.namespaces && !condition.namespaces.some((p) => facts.subject !== undefined && matchesPattern(p, facts.subject)))
    return false;
  return true;
}
