// Plain-text rendering of values, claims and entries: what the templated
// summary and recall say, and what token counts are taken of. A negation is
// spelled out ("not sms"), and a yes/no reads as a person would say it: a
// negated "phone calls: yes" is "phone calls: no".
import { canonicalJson } from '../canonical/canonical-json.js';
import type { Scopes } from '../entry/scopes.js';
import type { Value } from '../values/value.js';
import type { ConsolidationInput } from './input.js';

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

/** A value as stated with its polarity (`negated` or `affirmed`; recall's rows carry it as text). */
export function renderStatedValue(value: Value, polarity: string): string {
  const negated = polarity === 'negated';
  if (value.type === 'boolean') return value.value !== negated ? 'yes' : 'no';
  return `${negated ? 'not ' : ''}${renderValue(value)}`;
}

export function renderScopes(scopes: Scopes): string {
  const parts = (['team', 'project', 'thread', 'agent'] as const).flatMap((k) => (scopes[k] !== undefined ? [`${k}=${scopes[k]}`] : []));
  return parts.length > 0 ? ` [${parts.join(', ')}]` : '';
}

/** `key [scopes]: value`, the typed part of a line. */
export function renderTyped(s: {
  readonly key: string;
  readonly scopes: Scopes;
  readonly value: Value;
  readonly polarity: string;
}): string {
  return `${s.key}${renderScopes(s.scopes)}: ${renderStatedValue(s.value, s.polarity)}`;
}

/** The typed part and the words, apart: a dash ends the typed part's clause, so its negation never reaches the words. */
export function withStatement(typed: string, statement: string | undefined): string {
  return statement === undefined ? typed : `${typed} — ${statement}`;
}

/** How a raw entry reads when put into a context as it is (the baseline for token reduction). */
export function renderRawEntry(input: ConsolidationInput): string {
  return withStatement(renderTyped(input), input.content);
}
