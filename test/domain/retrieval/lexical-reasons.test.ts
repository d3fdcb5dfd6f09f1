// What a lexical match says of itself (signals/lexical.ts over
// corpus/lexical-index.ts, which keep no maps or sets per match): the query
// terms matched, sorted; those matched only by prefix or truncation; the
// fields they matched in, in field order; the IDF-weighted share matched,
// each term at its best form. The figures are what retrieval said before.
import { describe, expect, it } from 'vitest';
import { ask, doc } from './documents.js';

const DOCUMENTS = [
  doc('a', {
    kind: 'episodic',
    key: 'order.status',
    content: 'the deliveries were late again',
    value: 'shipped',
    anticipatedQueries: ['when will my parcel arrive'],
  }),
  doc('b', { kind: 'episodic', key: 'chat.turn', content: 'washing machine noise', value: 'washer' }),
  doc('c', { kind: 'episodic', key: 'chat.turn', content: 'nothing here' }),
];

const lexicalReason = (query: string) =>
  ask(DOCUMENTS, { query, topK: 5 }).hits.map((h) => [
    h.type === 'memory' ? h.id : '',
    h.retrieval.reasons.find((r) => r.code === 'lexical_match'),
  ]);

describe('a lexical match explained', () => {
  it('names its terms sorted, the partial ones, its fields in order and its strength', () => {
    const expected = [
      [
        'a',
        {
          code: 'lexical_match',
          contribution: 0,
          rank: 1,
          terms: ['deliv', 'late', 'parcel'],
          partial: ['deliv'],
          fields: ['content', 'anticipated'],
          strength: 0.8,
        },
      ],
    ];
    expect(lexicalReason('late deliv parcel')).toEqual(expected);
    // The query's order changes nothing.
    expect(lexicalReason('parcel late deliv')).toEqual(expected);
  });

  it('names the key and value fields it matched in', () => {
    expect(lexicalReason('order shipped')).toEqual([
      [
        'a',
        { code: 'lexical_match', contribution: 0, rank: 1, terms: ['order', 'ship'], partial: [], fields: ['key', 'value'], strength: 1 },
      ],
    ]);
  });

  it('counts a term met exactly and by truncation at its best', () => {
    // "washer" is the value exactly, and its truncation "wash" meets "washing" in the content.
    expect(lexicalReason('washers')).toEqual([
      ['b', { code: 'lexical_match', contribution: 0, rank: 1, terms: ['washer'], partial: [], fields: ['content', 'value'], strength: 1 }],
    ]);
  });
});
