// What the words of a summary keep of an input's content (issue 15: compress
// where the facts allow it, rather than truncate): the sentences that hold
// its must-preserve facts, whole and as written; sentences that hold none
// are left out, and an input whose words hold no fact is stated by its
// typed statement alone. Every fact is kept.
import type { ConsolidationInput } from './input.js';
import { renderTyped, withStatement } from './rendering.js';
import { extractTextFacts } from './text-facts/extract.js';
import { sameFact } from './text-facts/fact.js';
import { inputWords, typedValueFacts } from './text-facts/input-words.js';
import { closed, sentences } from './text-facts/segments.js';

/** The words a claim about this input carries; undefined when the typed statement says it all. */
export function statementOf(input: ConsolidationInput): string | undefined {
  const content = input.content;
  if (content === undefined) return undefined;
  if (input.value.type === 'text' && input.value.text === content) return undefined;
  const spans = inputWords(input)
    .facts.filter((f) => f.field === 'content')
    .map((f) => f.span);
  const kept = sentences(content).filter((s) => spans.some((f) => f.start < s.end && s.start < f.end));
  return kept.length > 0 ? kept.map((s) => s.text).join(' ') : undefined;
}

/** One statement for a claim several inputs share: each distinct statement once, in the order given. */
export function joinStatements(statements: ReadonlyArray<string | undefined>): string | undefined {
  const distinct = [...new Set(statements.filter((s): s is string => s !== undefined))];
  if (distinct.length <= 1) return distinct[0];
  return distinct.map(closed).join(' ');
}

/**
 * An open item in words: its content, whole (pending work is never
 * shortened), with the typed statement in front when the content does not
 * state every fact of the value.
 */
export function openItemText(input: ConsolidationInput): string {
  if (input.content === undefined) return renderTyped(input);
  const valueFacts = [...inputWords(input).facts.filter((f) => f.field === 'value'), ...typedValueFacts(input)];
  const said = extractTextFacts(input.content);
  return valueFacts.every((v) => said.some((s) => sameFact(s, v))) ? input.content : withStatement(renderTyped(input), input.content);
}
