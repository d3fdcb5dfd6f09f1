// The gate, words side: every must-preserve text fact is stated by what
// cites its input, and every fact in served text rests on an input. One
// reason per fact; messages name memory ids, fact kinds and spans, never
// the values (reasons are stored in clear).
import type { Reasons } from './gate.js';
import type { ConsolidationInput } from './input.js';
import type { SummarizerOutput } from './output.js';
import type { InputTextFact, TextFactKind } from './text-facts/fact.js';
import { checkWords, type ServedPart } from './word-check.js';

export function checkServedWords(inputs: readonly ConsolidationInput[], output: SummarizerOutput, reasons: Reasons): void {
  const keys = new Map(inputs.map((i) => [i.memoryId, i.key]));
  const check = checkWords(inputs, output);
  const flippedMemories = new Set<string>();
  for (const { fact, status } of check.facts) {
    // An input no claim or open item cites is reported missing once, by its typed statement.
    if (status === 'stated' || status === 'uncited') continue;
    if (status === 'polarity_flipped') flippedMemories.add(fact.memoryId);
    const claimKey = keys.get(fact.memoryId)!;
    reasons.add({
      code: status,
      message: `${fact.memoryId} (${claimKey}): the ${fact.kind} at ${where(fact)} ${FACT_MESSAGES[status]}`,
      memoryId: fact.memoryId,
      claimKey,
      factKind: fact.kind,
      span: { field: fact.field, start: fact.span.start, end: fact.span.end },
    });
  }
  for (const u of check.unsupported) {
    if (u.code === 'polarity_flipped' && u.memoryId !== undefined && flippedMemories.has(u.memoryId)) continue;
    const claimKey = u.in.part === 'claim' ? { claimKey: u.in.claimKey } : {};
    const message =
      u.code === 'false_new_fact'
        ? `${partName(u.in)} states ${KIND_NAMES[u.factKind]} that no input has`
        : u.code === 'missing_derivation'
          ? `${partName(u.in)} states ${KIND_NAMES[u.factKind]} of ${u.memoryId}, which it does not cite`
          : `${partName(u.in)} states a negation that ${u.memoryId} states with the opposite polarity`;
    reasons.add({
      code: u.code,
      message,
      ...(u.memoryId !== undefined ? { memoryId: u.memoryId } : {}),
      ...claimKey,
      factKind: u.factKind,
    });
  }
}

const KIND_NAMES: Readonly<Record<TextFactKind, string>> = {
  negation: 'a negation',
  number: 'a number',
  money: 'an amount of money',
  date: 'a date',
  time: 'a time of day',
  identifier: 'an id',
  permission: 'a permission scope',
};

const FACT_MESSAGES = {
  missing_fact: 'is not stated by the claims and open items that cite it',
  value_changed: 'is stated with a different value',
  unit_changed: 'is stated with a different unit',
  polarity_flipped: 'is stated with another polarity',
} as const;

function where(fact: InputTextFact): string {
  return `${fact.field} ${fact.span.start}-${fact.span.end}`;
}

function partName(part: ServedPart): string {
  switch (part.part) {
    case 'claim':
      return `the statement of claim ${part.index} (${part.claimKey})`;
    case 'open_item':
      return `open item ${part.index}`;
    case 'summary':
      return 'the summary text';
  }
}
