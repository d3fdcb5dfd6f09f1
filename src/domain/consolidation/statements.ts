// What the words of a summary keep of an input's content (issue 15: compress
// where the facts allow it, rather than truncate): the sentences that hold
// its must-preserve facts, whole and as written; sentences that hold none
// are left out, and an input whose words hold no fact is stated by its
// typed statement alone. Every fact is kept.
import type { ConsolidationInput } from './input.js';
import { isOpenItemKey } from './open-items.js';
import type { Claim } from './output.js';
import { renderScopes, renderTyped, withStatement } from './rendering.js';
import { extractTextFacts } from './text-facts/extract.js';
import { sameFact } from './text-facts/fact.js';
import { inputWords, typedValueFacts } from './text-facts/input-words.js';
import { closed, sentences } from './text-facts/segments.js';

const stated = new WeakMap<ConsolidationInput, { readonly statement: string | undefined }>();

/** The words a claim about this input carries; undefined when the typed statement says it all. */
export function statementOf(input: ConsolidationInput): string | undefined {
  const known = stated.get(input);
  if (known) return known.statement;
  const statement = factSentences(input);
  stated.set(input, { statement });
  return statement;
}

function factSentences(input: ConsolidationInput): string | undefined {
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
  return statesValueFacts(input, input.content) ? input.content : withStatement(renderTyped(input), input.content);
}

type Stated = Pick<Claim, 'key' | 'scopes' | 'value' | 'polarity' | 'statement'>;

/**
 * How a claim reads, as a person would write it: its words alone (after its
 * scopes) when they say what its typed statement says — "Refunds wait at
 * most 72 hours for approval." rather than "refund.approval_threshold: 72 h
 * — Refunds wait…" — otherwise the typed statement, then the words.
 */
export function claimText(claim: Stated): string {
  if (claim.statement === undefined) return renderTyped(claim);
  if (!restates(claim, claim.statement)) return withStatement(renderTyped(claim), claim.statement);
  const scopes = renderScopes(claim.scopes).trim();
  return scopes === '' ? claim.statement : `${scopes} ${claim.statement}`;
}

const lines = new WeakMap<ConsolidationInput, string>();

/** The line an input's own claim would take in the templated summary (what the token budget is planned with). */
export function inputLine(input: ConsolidationInput): string {
  const known = lines.get(input);
  if (known !== undefined) return known;
  const line = isOpenItemKey(input.key)
    ? `- ${openItemText(input)}`
    : renderClaimLine({ ...input, conflictIds: input.openConflictIds, statement: statementOf(input) });
  lines.set(input, line);
  return line;
}

/** One line of the templated summary. */
export function renderClaimLine(claim: Stated & Pick<Claim, 'conflictIds'>): string {
  const disputed = claim.conflictIds && claim.conflictIds.length > 0 ? ` (disputed: ${claim.conflictIds.join(', ')})` : '';
  return `- ${disputed === '' ? claimText(claim) : withStatement(`${renderTyped(claim)}${disputed}`, claim.statement)}`;
}

/** Words say a typed statement: a text value as written, or a number, date or id as a fact; never a yes/no, JSON or a negated value. */
function restates(s: Stated, words: string): boolean {
  if (s.polarity === 'negated') return false;
  switch (s.value.type) {
    case 'text':
      return words.normalize('NFC').toLowerCase().includes(s.value.text.normalize('NFC').toLowerCase());
    case 'entity':
      // An id is a fact as written.
      return words.normalize('NFC').includes(s.value.id.normalize('NFC'));
    case 'number':
    case 'date':
      return statesValueFacts(s, words);
    case 'boolean':
    case 'json':
      return false;
  }
}

function statesValueFacts(s: Pick<ConsolidationInput, 'value'>, words: string): boolean {
  const said = extractTextFacts(words);
  const valueFacts = [...(s.value.type === 'text' ? extractTextFacts(s.value.text) : []), ...typedValueFacts(s)];
  return valueFacts.every((v) => said.some((f) => sameFact(f, v)));
}
