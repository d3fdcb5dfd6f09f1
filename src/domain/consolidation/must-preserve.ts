// The must-preserve set (DESIGN section 5): what a summary may never lose —
// active constraints, negated facts, exact numbers, dates, entity ids,
// permission scopes, members of unresolved conflicts, open items — from the
// typed value and, since most memories are words, from the text of the
// content and of a text value (issue 15: negations with what they apply to,
// numbers with units, money, dates, times, ids, permission scopes).
// Extracted from the selected inputs before generation; the gate checks
// every one.
import { canonicalJson } from '../canonical/canonical-json.js';
import { canonicalValue } from '../canonical/canonical-value.js';
import type { Scopes } from '../entry/scopes.js';
import type { Polarity } from '../entry/vocabulary.js';
import type { Value } from '../values/value.js';
import type { ConsolidationInput } from './input.js';
import { isOpenItemKey } from './open-items.js';
import type { InputTextFact } from './text-facts/fact.js';
import { inputWords } from './text-facts/input-words.js';

export const MUST_PRESERVE_REASONS = [
  'constraint',
  'permission',
  'negated',
  'number',
  'date',
  'entity',
  'scoped',
  'conflict',
  'open_item',
  'text_facts',
] as const;
export type MustPreserveReason = (typeof MUST_PRESERVE_REASONS)[number];

export interface MustPreserveFact {
  readonly memoryId: string;
  readonly key: string;
  readonly scopes: Scopes;
  readonly value: Value;
  readonly polarity: Polarity;
  readonly reasons: readonly MustPreserveReason[];
  readonly openConflictIds: readonly string[];
  /** Checked against the output's openItems instead of its claims. */
  readonly openItem: boolean;
  /** Facts of its words, each checked on its own. */
  readonly textFacts: readonly InputTextFact[];
}

export function mustPreserveReasons(input: ConsolidationInput): MustPreserveReason[] {
  const reasons: MustPreserveReason[] = [];
  if (input.kind === 'constraint') reasons.push('constraint');
  if (input.kind === 'permission') reasons.push('permission');
  if (input.polarity === 'negated') reasons.push('negated');
  if (input.value.type === 'number') reasons.push('number');
  if (input.value.type === 'date') reasons.push('date');
  if (input.value.type === 'entity') reasons.push('entity');
  if (Object.keys(input.scopes).length > 0) reasons.push('scoped');
  if (input.openConflictIds.length > 0) reasons.push('conflict');
  if (isOpenItemKey(input.key)) reasons.push('open_item');
  if (inputWords(input).facts.length > 0) reasons.push('text_facts');
  return reasons;
}

/** In memoryId order, so the result does not depend on the order inputs were gathered in. */
export function extractMustPreserve(inputs: readonly ConsolidationInput[]): MustPreserveFact[] {
  return inputs
    .flatMap((input): MustPreserveFact[] => {
      const reasons = mustPreserveReasons(input);
      if (reasons.length === 0) return [];
      return [
        {
          memoryId: input.memoryId,
          key: input.key,
          scopes: input.scopes,
          value: input.value,
          polarity: input.polarity,
          reasons,
          openConflictIds: input.openConflictIds,
          openItem: reasons.includes('open_item'),
          textFacts: inputWords(input).facts,
        },
      ];
    })
    .sort((a, b) => compareText(a.memoryId, b.memoryId));
}

/** One comparable text for a must-preserve result (values in canonical form): equal meaning, equal text. */
export function mustPreserveDigest(facts: readonly MustPreserveFact[]): string {
  return canonicalJson(
    [...facts]
      .sort((a, b) => compareText(a.memoryId, b.memoryId))
      .map((f) => ({
        memoryId: f.memoryId,
        key: f.key,
        scopes: f.scopes,
        value: canonicalValue(f.value),
        polarity: f.polarity,
        reasons: f.reasons,
        conflicts: f.openConflictIds,
        text: f.textFacts.map((t) => [t.field, t.kind, t.canonical, t.span.start, t.span.end]),
      })),
  );
}

/** What a gate that passed checked: each entry's typed statement, and each fact of its words. */
export function mustPreserveCount(facts: readonly MustPreserveFact[]): number {
  return facts.reduce((n, f) => n + 1 + f.textFacts.length, 0);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
