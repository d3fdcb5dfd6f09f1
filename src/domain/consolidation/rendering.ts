// Plain-text rendering of values, claims and entries: what the templated
// summary says and what token counts are taken of.
import { canonicalJson } from '../canonical/canonical-json.js';
import type { Scopes } from '../entry/scopes.js';
import type { Value } from '../values/value.js';
import type { ConsolidationInput } from './input.js';
import type { Claim } from './output.js';

export function renderValue(value: Value): string {
  switch (value.type) {
    case 'text':
      return value.text;
    case 'number':
      return value.unit === undefined ? String(value.amount) : `${String(value.amount)} ${value.unit}`;
    case 'date':
      return value.date;
    case 'entity':
      return value.id;
    case 'boolean':
      return value.value ? 'yes' : 'no';
    case 'json':
      return canonicalJson(value.json);
  }
}

export function renderScopes(scopes: Scopes): string {
  const parts = (['project', 'thread', 'agent'] as const).flatMap((k) => (scopes[k] !== undefined ? [`${k}=${scopes[k]}`] : []));
  return parts.length > 0 ? ` [${parts.join(', ')}]` : '';
}

/** One line of the templated summary. Negation is spelled out, never implied. */
export function renderClaimLine(claim: Pick<Claim, 'key' | 'scopes' | 'value' | 'polarity' | 'conflictIds'>): string {
  const negated = claim.polarity === 'negated' ? 'NOT ' : '';
  const disputed = claim.conflictIds && claim.conflictIds.length > 0 ? ` (disputed: ${claim.conflictIds.join(', ')})` : '';
  return `- ${claim.key}${renderScopes(claim.scopes)}: ${negated}${renderValue(claim.value)}${disputed}`;
}

/** How a raw entry reads when put into a context as it is (the baseline for token reduction). */
export function renderRawEntry(input: ConsolidationInput): string {
  const negated = input.polarity === 'negated' ? 'NOT ' : '';
  const statement = `${input.key}${renderScopes(input.scopes)}: ${negated}${renderValue(input.value)}`;
  return input.content !== undefined ? `${statement} — ${input.content}` : statement;
}
