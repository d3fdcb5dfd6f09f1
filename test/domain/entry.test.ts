import { describe, expect, it } from 'vitest';
import { MAX_CONTENT_BYTES, parseEntry } from '../../src/domain/entry/entry.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { parseInstant } from '../../src/domain/values/instant.js';

const base = {
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text: 'sms' },
  source: { type: 'user_assertion', refs: ['msg://thread-9/turn-14'] },
};

function errorOf(input: unknown): InvalidInput {
  const parsed = parseEntry(input);
  if (parsed.ok) throw new Error('expected the entry to be refused');
  expect(parsed.error).toBeInstanceOf(InvalidInput);
  return parsed.error;
}

describe('parseEntry', () => {
  it('accepts the entry of DESIGN section 10 and normalises its instants', () => {
    const parsed = parseEntry({
      ...base,
      polarity: 'affirmed',
      content: 'Prefers SMS for logistics updates; never phone calls.',
      confidence: 0.95,
      sensitivity: 'personal',
      scopes: { project: 'shop-a' },
      validFrom: '2026-07-10T00:00:00Z',
      expiresAt: '2027-07-10T08:00:00+08:00',
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.entry.validFrom).toBe('2026-07-10T00:00:00.000Z');
    expect(parsed.entry.expiresAt).toBe('2027-07-10T00:00:00.000Z');
    expect(parsed.entry.scopes).toEqual({ project: 'shop-a' });
  });

  it('needs only kind, key, value and source, and fills the defaults', () => {
    const parsed = parseEntry(base);
    expect(parsed).toEqual({
      ok: true,
      entry: { ...base, polarity: 'affirmed', sensitivity: 'normal', scopes: {} },
    });
  });

  it.each([
    ['missing key', { ...base, key: undefined }, 'key', /required/],
    ['missing kind', { ...base, kind: undefined }, 'kind', /required/],
    ['missing value', { ...base, value: undefined }, 'value', /required/],
    ['missing source', { ...base, source: undefined }, 'source', /required/],
    ['unknown kind', { ...base, kind: 'opinion' }, 'kind', /episodic/],
    ['bad key syntax', { ...base, key: 'notification..preference' }, 'key', /dot-separated/],
    ['key with spaces', { ...base, key: 'notification preference' }, 'key', /dot-separated/],
    ['value as a bare string', { ...base, value: 'sms' }, 'value', /object/],
    ['unknown value type', { ...base, value: { type: 'colour', text: 'red' } }, 'value.type', /text, number/],
    ['text value without text', { ...base, value: { type: 'text' } }, 'value.text', /required/],
    ['number with a non-decimal amount', { ...base, value: { type: 'number', amount: 'seventy-two' } }, 'value.amount', /decimal/],
    ['number with a boolean amount', { ...base, value: { type: 'number', amount: true } }, 'value.amount', /decimal/],
    ['number with an empty unit', { ...base, value: { type: 'number', amount: 3, unit: '' } }, 'value.unit', /empty/],
    ['boolean given as text', { ...base, value: { type: 'boolean', value: 'yes' } }, 'value.value', /true or false/],
    ['date value not a date', { ...base, value: { type: 'date', date: '2026-13-01' } }, 'value.date', /real date/],
    ['entity id with spaces', { ...base, value: { type: 'entity', id: 'ORD A1' } }, 'value.id', /whitespace/],
    ['json value that is not JSON', { ...base, value: { type: 'json', json: { a: [1, Number.NaN] } } }, 'value.json.a.1', /finite/],
    [
      'a field the value type does not have',
      { ...base, value: { type: 'text', text: 'sms', unit: 'h' } },
      'value.unit',
      /not a known field/,
    ],
    ['unknown polarity', { ...base, polarity: 'maybe' }, 'polarity', /affirmed or negated/],
    ['unknown source type', { ...base, source: { type: 'rumour' } }, 'source.type', /human_review/],
    ['source ref that is not a string', { ...base, source: { type: 'user_assertion', refs: [42] } }, 'source.refs.0', /string/],
    ['confidence above 1', { ...base, confidence: 1.5 }, 'confidence', /0 to 1/],
    ['unknown sensitivity', { ...base, sensitivity: 'secret' }, 'sensitivity', /public/],
    ['unknown scope', { ...base, scopes: { region: 'x' } }, 'scopes.region', /not a known field/],
    ['scope with a slash', { ...base, scopes: { project: 'a/b' } }, 'scopes.project', /without whitespace or \//],
    ['malformed date', { ...base, validFrom: '10/07/2026' }, 'validFrom', /ISO 8601/],
    ['date without offset', { ...base, validFrom: '2026-07-10T00:00:00' }, 'validFrom', /offset/],
    ['impossible day', { ...base, validFrom: '2026-02-29T00:00:00Z' }, 'validFrom', /no day 29/],
    ['impossible hour', { ...base, expiresAt: '2026-07-10T24:00:00Z' }, 'expiresAt', /time of day/],
    ['sub-millisecond precision', { ...base, validFrom: '2026-07-10T00:00:00.1234Z' }, 'validFrom', /millisecond/],
    [
      'validTo not after validFrom',
      { ...base, validFrom: '2026-07-10T08:00:00+08:00', validTo: '2026-07-10T00:00:00Z' },
      'validTo',
      /later than validFrom/,
    ],
    ['oversized content', { ...base, content: 'x'.repeat(MAX_CONTENT_BYTES + 1) }, 'content', /16384 bytes/],
    ['empty content', { ...base, content: '' }, 'content', /empty/],
    ['a misspelt field', { ...base, valid_from: '2026-07-10T00:00:00Z' }, 'valid_from', /not a known field/],
    [
      'nine anticipated queries',
      { ...base, anticipatedQueries: Array.from({ length: 9 }, (_x, i) => `q${i}?`) },
      'anticipatedQueries',
      /at most 8/,
    ],
    [
      'a 257-character anticipated query',
      { ...base, anticipatedQueries: ['ok?', '问'.repeat(257)] },
      'anticipatedQueries.1',
      /at most 256 characters/,
    ],
    ['a blank anticipated query', { ...base, anticipatedQueries: [' '] }, 'anticipatedQueries.0', /empty/],
    ['anticipated queries that are not a list', { ...base, anticipatedQueries: 'can we call?' }, 'anticipatedQueries', /array/],
    ['an anticipated query that is not text', { ...base, anticipatedQueries: [42] }, 'anticipatedQueries.0', /string/],
  ])('refuses %s, naming the field', (_name, input, field, message) => {
    const error = errorOf(input);
    expect(error.field).toBe(field);
    expect(error.message).toMatch(message);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  });

  it('keeps up to 8 anticipated queries of up to 256 characters (code points), trimmed', () => {
    const queries = [' 这位客户能打电话吗？ ', '问'.repeat(256), ...Array.from({ length: 6 }, (_x, i) => `q${i}?`)];
    const parsed = parseEntry({ ...base, anticipatedQueries: queries });
    expect(parsed.ok && parsed.entry.anticipatedQueries).toEqual(queries.map((q) => q.trim()));
    const without = parseEntry(base);
    expect(without.ok && 'anticipatedQueries' in without.entry).toBe(false);
  });

  it('counts content in UTF-8 bytes, not characters', () => {
    const ok = parseEntry({ ...base, content: '短'.repeat(MAX_CONTENT_BYTES / 4) });
    expect(ok.ok).toBe(true);
    expect(errorOf({ ...base, content: '短'.repeat(MAX_CONTENT_BYTES / 3 + 1) }).field).toBe('content');
  });

  it('names the entry itself when it is not an object', () => {
    expect(errorOf(null).field).toBe('entry');
    expect(errorOf([base]).field).toBe('entry');
  });

  it('accepts 29 February in leap years only', () => {
    expect(parseEntry({ ...base, validFrom: '2028-02-29T12:00:00Z' }).ok).toBe(true);
    expect(errorOf({ ...base, validFrom: '2100-02-29T12:00:00Z' }).field).toBe('validFrom');
    expect(parseEntry({ ...base, validFrom: '2000-02-29T12:00:00Z' }).ok).toBe(true);
  });
});

describe('parseInstant', () => {
  it('normalises offsets, fractions and optional seconds to UTC milliseconds', () => {
    expect(parseInstant('2026-07-10T08:00+08:00')).toEqual({ ok: true, instant: '2026-07-10T00:00:00.000Z' });
    expect(parseInstant('2026-01-01T00:30:00.5-01:00')).toEqual({ ok: true, instant: '2026-01-01T01:30:00.500Z' });
    expect(parseInstant('2026-07-10T00:00:00.123000Z')).toEqual({ ok: true, instant: '2026-07-10T00:00:00.123Z' });
    expect(parseInstant('0099-07-10T00:00:00Z')).toEqual({ ok: true, instant: '0099-07-10T00:00:00.000Z' });
  });

  it('refuses offsets beyond ±18:00 and instants outside 0001-9999 in UTC (what the stores hold)', () => {
    expect(parseInstant('2026-07-10T00:00:00+19:00').ok).toBe(false);
    expect(parseInstant('9999-12-31T23:00:00-05:00').ok).toBe(false);
    // PostgreSQL has no year 0 (1 BC is "0001-01-01 BC"): these reached the projection and wedged it.
    expect(parseInstant('0000-01-01T00:00:00Z').ok).toBe(false);
    expect(parseInstant('0001-01-01T00:30:00+01:00').ok).toBe(false);
    expect(parseInstant('0001-01-01T00:00:00Z')).toEqual({ ok: true, instant: '0001-01-01T00:00:00.000Z' });
    expect(parseInstant('9999-12-31T23:59:59.999Z')).toEqual({ ok: true, instant: '9999-12-31T23:59:59.999Z' });
    expect(errorOf({ ...base, validFrom: '0000-01-01T00:00:00Z' }).field).toBe('validFrom');
    expect(errorOf({ ...base, expiresAt: '0001-01-01T00:30:00+01:00' }).field).toBe('expiresAt');
  });
});
