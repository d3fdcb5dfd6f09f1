// The words of an input as the gate and the summarizer read them: its
// must-preserve text facts (from its content and a text value), and what it
// grounds — every fact it states anywhere (typed statement, content, key,
// scopes), so a summary may restate "72 h" as "3 days" or name the order id
// of its key. Read once per input (inputs are immutable).
import { canonicalJson } from '../../canonical/canonical-json.js';
import { canonicalValue } from '../../canonical/canonical-value.js';
import { unitConversion } from '../../canonical/units.js';
import type { ConsolidationInput } from '../input.js';
import { renderTyped } from '../rendering.js';
import { extractTextFacts, readText } from './extract.js';
import type { InputTextFact, TextFact, TextField } from './fact.js';
import type { ReadClause } from './negations.js';

export interface InputWords {
  readonly input: ConsolidationInput;
  /** What a summary that cites this input must state. */
  readonly facts: readonly InputTextFact[];
  /** Facts other than negations this input states anywhere. */
  readonly grounds: readonly TextFact[];
  /** Its clauses, for the negations it states. */
  readonly clauses: readonly ReadClause[];
}

const known = new WeakMap<ConsolidationInput, InputWords>();

export function inputWords(input: ConsolidationInput): InputWords {
  const already = known.get(input);
  if (already) return already;
  const read = input.content !== undefined ? readText(input.content) : { facts: [], clauses: [] };
  const content = read.facts;
  const value = input.value.type === 'text' ? extractTextFacts(input.value.text) : [];
  const at =
    (field: TextField) =>
    (fact: TextFact): InputTextFact => ({ ...fact, memoryId: input.memoryId, field });
  const facts = [...content.map(at('content')), ...value.map(at('value'))];
  // The typed statement holds the key, the scopes and the value as rendered.
  const typed = readText(renderTyped(input));
  const grounds = [...typed.facts, ...content, ...typedValueFacts(input)].filter((f) => f.kind !== 'negation');
  const words: InputWords = { input, facts, grounds, clauses: [...typed.clauses, ...read.clauses] };
  known.set(input, words);
  return words;
}

/** The typed value as a fact of the words, whatever its rendering: 72 h is the number "3 days" of a statement. */
export function typedValueFacts(input: Pick<ConsolidationInput, 'value'>): TextFact[] {
  const span = { start: 0, end: 0 };
  const value = input.value;
  switch (value.type) {
    case 'number': {
      const written = canonicalValue({ type: 'number', amount: value.amount });
      const dimension = value.unit === undefined ? 'none' : (unitConversion(value.unit)?.dimension ?? value.unit);
      return [
        {
          kind: 'number',
          written: written.type === 'number' ? written.amount : String(value.amount),
          ...(value.unit !== undefined ? { unit: value.unit } : {}),
          dimension,
          span,
          canonical: canonicalJson(canonicalValue(value)),
        },
      ];
    }
    case 'date': {
      const c = canonicalValue(value);
      return c.type === 'date' ? [{ kind: 'date', span, canonical: c.date }] : [];
    }
    case 'entity':
      return [{ kind: 'identifier', shape: 'entity', span, canonical: value.id.normalize('NFC') }];
    default:
      return [];
  }
}
