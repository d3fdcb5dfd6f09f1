// The detectors read every text field of an entry and name the field; a
// JSON path never repeats a member name that is not plainly a name.
import { describe, expect, it } from 'vitest';
import { requireEntry } from '../../src/domain/entry/entry.js';
import { inspectEntry } from '../../src/domain/policy/inspect.js';
import { ALNUM, j, synth } from './corpus/synthetic.js';

const ghToken = j('gh', 'p_', synth(36, ALNUM, 501, 'SYNTHETIC'));
const base = {
  kind: 'semantic',
  key: 'note',
  value: { type: 'text', text: 'plain' },
  source: { type: 'user_assertion', refs: ['msg://t/1'] },
};
const inspect = (overrides: Record<string, unknown>, extra: { anticipatedQueries?: string[] } = {}) =>
  inspectEntry({ ...requireEntry({ ...base, ...overrides }), ...extra });
const fieldsOf = (overrides: Record<string, unknown>, extra = {}) => inspect(overrides, extra).map((d) => `${d.field} ${d.kind}`);

describe('inspectEntry', () => {
  it('finds nothing in a plain entry', () => {
    expect(inspect({})).toEqual([]);
  });

  it.each([
    ['content', { content: `token ${ghToken}` }],
    ['key', { key: `bot.${ghToken}` }],
    ['value.text', { value: { type: 'text', text: ghToken } }],
    ['value.id', { value: { type: 'entity', id: ghToken } }],
    ['source.refs.1', { source: { type: 'user_assertion', refs: ['msg://t/1', `https://x.example.com/?token=${ghToken}`] } }],
    ['consentRef', { consentRef: `consent://${ghToken}` }],
    ['value.json.ci.token', { value: { type: 'json', json: { ci: { token: ghToken } } } }],
    ['value.json.list.1', { value: { type: 'json', json: { list: ['a', ghToken] } } }],
  ])('reads %s', (field, overrides) => {
    expect(fieldsOf(overrides)).toContain(`${field} secret:github_token`);
  });

  it('reads anticipated queries when the entry carries them', () => {
    expect(fieldsOf({}, { anticipatedQueries: ['what is my number', 'call 13812345678?'] })).toEqual([
      'anticipatedQueries.1 personal:phone',
    ]);
  });

  it('reads a number value, where a card number may hide', () => {
    expect(fieldsOf({ value: { type: 'number', amount: '4111111111111111' } })).toEqual(['value.amount personal:card_number']);
  });

  it('reads a JSON member name as context: "password": "…" is a password, with the span inside the value', () => {
    const [found] = inspect({ value: { type: 'json', json: { db: { password: 'Synthetic#Pw2026' } } } });
    expect(found).toEqual({ field: 'value.json.db.password', kind: 'secret:password', start: 0, end: 'Synthetic#Pw2026'.length });
  });

  it('does not repeat a member name that could itself be a secret: its position stands in, and the name is read too', () => {
    const found = inspect({ value: { type: 'json', json: { plain: 1, [ghToken]: { note: 'call 13812345678' } } } });
    expect(found.map((d) => `${d.field} ${d.kind}`)).toEqual([
      'value.json.#1.(key) secret:github_token',
      'value.json.#1.note personal:phone',
    ]);
    expect(JSON.stringify(found)).not.toContain(ghToken);
  });
});
