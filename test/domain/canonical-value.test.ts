import { describe, expect, it } from 'vitest';
import { canonicalValue, canonicalValueJson, sameCanonicalValue } from '../../src/domain/canonical/canonical-value.js';
import { formatDecimal, parseDecimal } from '../../src/domain/canonical/decimal.js';
import { inputRoot } from '../../src/domain/canonical/input-root.js';
import type { Value } from '../../src/domain/values/value.js';

const qty = (amount: string | number, unit?: string): Value =>
  unit === undefined ? { type: 'number', amount } : { type: 'number', amount, unit };

describe('quantities compare after exact conversion to a base unit', () => {
  it('72 h equals 3 d, and both are 259200000 ms', () => {
    expect(sameCanonicalValue(qty('72', 'h'), qty(3, 'd'))).toBe(true);
    expect(canonicalValue(qty('72', 'h'))).toEqual({ type: 'number', amount: '259200000', unit: 'ms' });
  });

  it('72 h differs from 72 d, and 72 from 27', () => {
    expect(sameCanonicalValue(qty('72', 'h'), qty('72', 'd'))).toBe(false);
    expect(sameCanonicalValue(qty(72), qty(27))).toBe(false);
    expect(sameCanonicalValue(qty('72', 'h'), qty('27', 'h'))).toBe(false);
  });

  it('converts fractions exactly, without floating-point drift', () => {
    expect(sameCanonicalValue(qty('1.5', 'h'), qty('90', 'min'))).toBe(true);
    expect(sameCanonicalValue(qty('0.1', 's'), qty('100', 'ms'))).toBe(true);
    expect(sameCanonicalValue(qty(0.1, 'km'), qty('100', 'm'))).toBe(true);
    expect(sameCanonicalValue(qty('0.3', 'kg'), qty('300', 'g'))).toBe(true);
    expect(canonicalValue(qty('0.0001', 'ms'))).toEqual({ type: 'number', amount: '0.0001', unit: 'ms' });
    expect(sameCanonicalValue(qty('2', 'w'), qty('14', 'days'))).toBe(true);
  });

  it('keeps dimensions apart: 1 m (metre) is not 1 min', () => {
    expect(sameCanonicalValue(qty(1, 'm'), qty(1, 'min'))).toBe(false);
    expect(canonicalValue(qty(1, 'm'))).toEqual({ type: 'number', amount: '1000', unit: 'mm' });
  });

  it('distinguishes decimal and binary data units', () => {
    expect(sameCanonicalValue(qty(1, 'KiB'), qty(1024, 'B'))).toBe(true);
    expect(sameCanonicalValue(qty(1, 'KB'), qty(1000, 'B'))).toBe(true);
    expect(sameCanonicalValue(qty(1, 'KB'), qty(1, 'KiB'))).toBe(false);
    expect(sameCanonicalValue(qty('0.5', 'GiB'), qty(512, 'MiB'))).toBe(true);
  });

  it('compares unknown units as written', () => {
    expect(canonicalValue(qty('12.50', 'EUR'))).toEqual({ type: 'number', amount: '12.5', unit: 'EUR' });
    expect(sameCanonicalValue(qty(12.5, 'EUR'), qty('12.5', 'EUR'))).toBe(true);
    expect(sameCanonicalValue(qty(12.5, 'EUR'), qty(12.5, 'USD'))).toBe(false);
    expect(sameCanonicalValue(qty(12.5, 'EUR'), qty(12.5))).toBe(false);
  });
});

describe('decimal amounts are normalised', () => {
  it.each([
    ['72.0', '72'],
    ['072', '72'],
    ['+72', '72'],
    ['0.50', '0.5'],
    ['-0', '0'],
    ['-0.000', '0'],
    ['1.5e3', '1500'],
    ['1E-3', '0.001'],
    ['-12.340e1', '-123.4'],
    ['100', '100'],
  ])('%s reads as %s', (text, expected) => {
    const parsed = parseDecimal(text);
    expect(parsed.ok && formatDecimal(parsed.decimal)).toBe(expected);
  });

  it('reads numbers by their shortest decimal form', () => {
    for (const [n, text] of [
      [72, '72'],
      [0.1, '0.1'],
      [1e21, '1000000000000000000000'],
      [1e-7, '0.0000001'],
      [-2.5, '-2.5'],
    ] as const) {
      const parsed = parseDecimal(n);
      expect(parsed.ok && formatDecimal(parsed.decimal)).toBe(text);
    }
    expect(sameCanonicalValue(qty('72.0'), qty(72))).toBe(true);
  });

  it('refuses what is not a decimal', () => {
    for (const bad of ['', 'abc', '1.', '.5', '1,5', '0x10', '1e', '1e9999', 'NaN', ' 1']) expect(parseDecimal(bad).ok).toBe(false);
    expect(parseDecimal(Number.POSITIVE_INFINITY).ok).toBe(false);
  });
});

describe('other value types', () => {
  it('entity ids compare exactly (case matters) and NFC-normalised', () => {
    expect(sameCanonicalValue({ type: 'entity', id: 'ORD-A1B2C3D4' }, { type: 'entity', id: 'ORD-A1B2C3D4' })).toBe(true);
    expect(sameCanonicalValue({ type: 'entity', id: 'ORD-A1B2C3D4' }, { type: 'entity', id: 'ORD-A1B2C3D5' })).toBe(false);
    expect(sameCanonicalValue({ type: 'entity', id: 'ord-a1b2c3d4' }, { type: 'entity', id: 'ORD-A1B2C3D4' })).toBe(false);
    expect(sameCanonicalValue({ type: 'entity', id: 'cafe\u0301' }, { type: 'entity', id: 'café' })).toBe(true);
  });

  it('an entity id is not the same value as a text with the same characters', () => {
    expect(sameCanonicalValue({ type: 'entity', id: 'sms' }, { type: 'text', text: 'sms' })).toBe(false);
  });

  it('date-times compare as instants; calendar dates stay dates', () => {
    expect(sameCanonicalValue({ type: 'date', date: '2026-07-10T08:00:00+08:00' }, { type: 'date', date: '2026-07-10T00:00:00Z' })).toBe(
      true,
    );
    expect(canonicalValue({ type: 'date', date: '2026-07-10T08:00:00+08:00' })).toEqual({ type: 'date', date: '2026-07-10T00:00:00.000Z' });
    expect(sameCanonicalValue({ type: 'date', date: '2026-07-10' }, { type: 'date', date: '2026-07-10T00:00:00Z' })).toBe(false);
  });

  it('json values compare by RFC 8785 form: key order and number spelling do not matter', () => {
    expect(canonicalValueJson({ type: 'json', json: { b: [1, 2.0], a: { y: true, x: null } } })).toBe(
      '{"json":{"a":{"x":null,"y":true},"b":[1,2]},"type":"json"}',
    );
    expect(sameCanonicalValue({ type: 'json', json: { a: 1, b: 2 } }, { type: 'json', json: { b: 2, a: 1 } })).toBe(true);
    expect(sameCanonicalValue({ type: 'json', json: [1, 2] }, { type: 'json', json: [2, 1] })).toBe(false);
  });

  it('booleans and text', () => {
    expect(sameCanonicalValue({ type: 'boolean', value: true }, { type: 'boolean', value: false })).toBe(false);
    expect(sameCanonicalValue({ type: 'text', text: 'sms' }, { type: 'text', text: 'SMS' })).toBe(false);
    expect(canonicalValueJson({ type: 'text', text: 'sms' })).toBe('{"text":"sms","type":"text"}');
  });
});

describe('inputRoot', () => {
  const a = { memoryId: 'm-1', sequence: 1, valueHash: 'a'.repeat(64) };
  const b = { memoryId: 'm-2', sequence: 2, valueHash: 'b'.repeat(64) };
  it('is a sha256 over the inputs as a set', () => {
    expect(inputRoot([a, b])).toMatch(/^[0-9a-f]{64}$/);
    expect(inputRoot([a, b])).toBe(inputRoot([b, a]));
    expect(inputRoot([a, b])).not.toBe(inputRoot([a]));
    expect(inputRoot([a, b])).not.toBe(inputRoot([a, { ...b, valueHash: 'c'.repeat(64) }]));
  });
});
