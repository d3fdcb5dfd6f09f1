import { describe, expect, it } from 'vitest';
import { keyMatcher, parseRetrievalQuery, requireRetrievalQuery } from '../../../src/domain/retrieval/index.js';
import { InvalidInput } from '../../../src/domain/validation/invalid-input.js';

function failure(input: unknown): { field: string; reason: string } {
  const parsed = parseRetrievalQuery(input);
  if (parsed.ok) throw new Error(`accepted ${JSON.stringify(input)}`);
  return { field: parsed.error.field, reason: parsed.error.reason };
}

describe('the retrieval query schema', () => {
  it('defaults topK to 20 and leaves absent filters absent', () => {
    expect(requireRetrievalQuery({ query: 'how do they want to be contacted?' })).toEqual({
      query: 'how do they want to be contacted?',
      topK: 20,
    });
    expect(requireRetrievalQuery({ query: 'q', topK: 200, key: 'notification.*', kind: 'profile', minScore: 0.3, budget: 500 })).toEqual({
      query: 'q',
      topK: 200,
      key: 'notification.*',
      kind: 'profile',
      minScore: 0.3,
      budget: 500,
    });
  });

  it('refuses an empty, blank or 2 KiB query, naming the field', () => {
    expect(failure({ query: '' })).toEqual({ field: 'query', reason: 'must not be empty' });
    expect(failure({ query: ' \n\t' }).field).toBe('query');
    expect(failure({}).field).toBe('query');
    expect(parseRetrievalQuery({ query: 'a'.repeat(2047) }).ok).toBe(true);
    expect(failure({ query: 'a'.repeat(2048) }).field).toBe('query');
    // bytes of UTF-8, not characters: 683 CJK characters are 2049 bytes
    expect(failure({ query: '电'.repeat(683) }).field).toBe('query');
  });

  it('refuses topK outside 1..200 or not whole', () => {
    for (const topK of [0, 201, 1.5, -3, '5', Number.NaN]) expect(failure({ query: 'q', topK }).field).toBe('topK');
  });

  it('refuses an unknown kind, a malformed key pattern, a negative minScore, a bad budget, an unknown field', () => {
    expect(failure({ query: 'q', kind: 'diary' }).field).toBe('kind');
    for (const key of ['notification..x', 'a.*b', '*x', '.a', 'a b', '', 'x'.repeat(201)])
      expect(failure({ query: 'q', key }).field).toBe('key');
    expect(failure({ query: 'q', minScore: -0.1 }).field).toBe('minScore');
    expect(failure({ query: 'q', minScore: Infinity }).field).toBe('minScore');
    expect(failure({ query: 'q', budget: 0 }).field).toBe('budget');
    expect(failure({ query: 'q', topk: 5 }).field).toBe('topk');
    expect(() => requireRetrievalQuery({ query: 'q', kind: 'diary' })).toThrow(InvalidInput);
  });
});

describe('key patterns', () => {
  it('matches exact keys, one segment per inner *, one or more for a trailing *', () => {
    const under = keyMatcher('notification.*');
    expect(['notification.preference', 'notification.sms.hours'].every(under)).toBe(true);
    expect(['notification', 'notifications.x', 'profile.notification'].some(under)).toBe(false);
    const inner = keyMatcher('*.preference');
    expect(inner('notification.preference')).toBe(true);
    expect(inner('a.b.preference')).toBe(false);
    expect(keyMatcher('*')('anything.at.all')).toBe(true);
    const exact = keyMatcher('profile.language');
    expect(exact('profile.language')).toBe(true);
    expect(exact('profile.languages')).toBe(false);
  });
});
