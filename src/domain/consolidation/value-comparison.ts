// How a stated value differs from the one it must preserve. Canonical forms
// decide equality (72 h = 3 d); a number whose amount or dimension stays the
// same but whose unit does not (72 h vs 72 d, 72 h vs 72) is a unit change.
import { canonicalJson } from '../canonical/canonical-json.js';
import { canonicalValueJson } from '../canonical/canonical-value.js';
import { formatDecimal, parseDecimal } from '../canonical/decimal.js';
import { unitConversion } from '../canonical/units.js';
import { normaliseScopes, type Scopes } from '../entry/scopes.js';
import type { Value } from '../values/value.js';

export type ValueComparison = 'same' | 'unit_changed' | 'value_changed';

export function compareValues(expected: Value, actual: Value): ValueComparison {
  if (canonicalValueJson(expected) === canonicalValueJson(actual)) return 'same';
  if (expected.type !== 'number' || actual.type !== 'number') return 'value_changed';
  if (expected.unit === actual.unit) return 'value_changed';
  const writtenAmountSame = writtenAmount(expected.amount) === writtenAmount(actual.amount);
  const dimension = (unit: string | undefined) => (unit === undefined ? 'none' : (unitConversion(unit)?.dimension ?? `as-written:${unit}`));
  const sameDimension = dimension(expected.unit) === dimension(actual.unit);
  return writtenAmountSame || !sameDimension ? 'unit_changed' : 'value_changed';
}

function writtenAmount(amount: string | number): string {
  const parsed = parseDecimal(amount);
  return parsed.ok ? formatDecimal(parsed.decimal) : String(amount);
}

export function sameScopes(a: Scopes, b: Scopes): boolean {
  return canonicalJson(normaliseScopes(a)) === canonicalJson(normaliseScopes(b));
}
