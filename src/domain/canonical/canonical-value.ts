// The canonical form of a typed value: what DUPLICATE detection, keyed value
// hashes and the loss gate compare. Equal meaning -> equal bytes:
// amounts are exact decimals in the base unit of their dimension
// (72 h and 3 d are both 259200000 ms), instants are UTC, text is NFC.
import { canonicalJson } from './canonical-json.js';
import { formatDecimal, multiplyDecimal, parseDecimal } from './decimal.js';
import { unitConversion } from './units.js';
import { parseInstant } from '../values/instant.js';
import type { JsonValue } from '../values/json-value.js';
import type { Value } from '../values/value.js';

export type CanonicalValue =
  | { type: 'text'; text: string }
  | { type: 'number'; amount: string; unit?: string }
  | { type: 'date'; date: string }
  | { type: 'entity'; id: string }
  | { type: 'boolean'; value: boolean }
  | { type: 'json'; json: JsonValue };

/** Expects a value that passed `valueSchema`; throws on one that did not. */
export function canonicalValue(value: Value): CanonicalValue {
  switch (value.type) {
    case 'text':
      return { type: 'text', text: value.text.normalize('NFC') };
    case 'number':
      return canonicalNumber(value.amount, value.unit);
    case 'date':
      return { type: 'date', date: canonicalDate(value.date) };
    case 'entity':
      return { type: 'entity', id: value.id.normalize('NFC') };
    case 'boolean':
      return { type: 'boolean', value: value.value };
    case 'json':
      return { type: 'json', json: value.json };
  }
}

function canonicalNumber(amount: string | number, unit: string | undefined): CanonicalValue {
  const parsed = parseDecimal(amount);
  if (!parsed.ok) throw new RangeError(`amount ${String(amount)} ${parsed.message}`);
  if (unit === undefined) return { type: 'number', amount: formatDecimal(parsed.decimal) };
  const conversion = unitConversion(unit);
  if (!conversion) return { type: 'number', amount: formatDecimal(parsed.decimal), unit: unit.normalize('NFC') };
  return { type: 'number', amount: formatDecimal(multiplyDecimal(parsed.decimal, conversion.factor)), unit: conversion.base };
}

function canonicalDate(text: string): string {
  // A calendar date and an instant are different values: a date stays as written.
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  const parsed = parseInstant(text);
  if (!parsed.ok) throw new RangeError(`date ${text} ${parsed.message}`);
  return parsed.instant;
}

/** The RFC 8785 bytes of the canonical value: the plaintext that keyed value hashes cover. */
export function canonicalValueJson(value: Value): string {
  return canonicalJson(canonicalValue(value));
}

export function sameCanonicalValue(a: Value, b: Value): boolean {
  return canonicalValueJson(a) === canonicalValueJson(b);
}
