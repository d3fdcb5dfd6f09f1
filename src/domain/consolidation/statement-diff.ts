// How a claim differs from the entry it cites: the gate's per-field reasons.
import type { GateFailureCode } from '../events/artifact-events.js';
import type { Scopes } from '../entry/scopes.js';
import type { Polarity } from '../entry/vocabulary.js';
import type { Value } from '../values/value.js';
import type { Claim } from './output.js';
import { compareValues, sameScopes } from './value-comparison.js';

export interface Statement {
  readonly key: string;
  readonly scopes: Scopes;
  readonly value: Value;
  readonly polarity: Polarity;
}

/** The codes of every difference, in a fixed order; empty when the claim states the entry exactly. */
export function statementDifferences(expected: Statement, claim: Claim): GateFailureCode[] {
  const codes: GateFailureCode[] = [];
  if (!sameScopes(expected.scopes, claim.scopes)) codes.push('scope_changed');
  const value = compareValues(expected.value, claim.value);
  if (value !== 'same') codes.push(value);
  if (expected.polarity !== claim.polarity) codes.push('polarity_flipped');
  return codes;
}

export const DIFFERENCE_MESSAGES: Readonly<Partial<Record<GateFailureCode, string>>> = {
  scope_changed: 'is stated with other scopes',
  value_changed: 'is stated with a different value',
  unit_changed: 'is stated with a different unit',
  polarity_flipped: 'is stated with the opposite polarity',
};
