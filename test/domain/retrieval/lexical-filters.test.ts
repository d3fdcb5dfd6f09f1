// BM25 checks each document it finds against the kind and key filters only
// when there are filters (retrieve.ts): with one, nothing outside it is a
// lexical candidate; without, every document may be.
import { describe, expect, it } from 'vitest';
import { ask, doc, idsOf } from './documents.js';

const DOCUMENTS = [
  doc('a', { kind: 'profile', key: 'contact.channel', content: 'send the parcel notice by sms' }),
  doc('b', { kind: 'episodic', key: 'chat.turn', content: 'the parcel arrived late' }),
  doc('c', { kind: 'procedural', key: 'shipping.parcel', content: 'parcel returns go to the back door' }),
  doc('d', { kind: 'episodic', key: 'chat.turn', content: 'nothing about deliveries here' }),
];

describe('the lexical signal under filters', () => {
  it('finds only documents of the kind asked for', () => {
    const answer = ask(DOCUMENTS, { query: 'parcel', topK: 10, kind: 'episodic' });
    expect(answer.signals.lexical).toBe(1);
    expect(answer.hits.flatMap(idsOf)).toEqual(['b']);
  });

  it('finds only documents under the key asked for', () => {
    const answer = ask(DOCUMENTS, { query: 'parcel', topK: 10, key: 'shipping.*' });
    expect(answer.signals.lexical).toBe(1);
    expect(answer.hits.flatMap(idsOf)).toEqual(['c']);
  });

  it('finds every document that matches without a filter', () => {
    const answer = ask(DOCUMENTS, { query: 'parcel', topK: 10 });
    expect(answer.signals.lexical).toBe(3);
    expect(answer.hits.flatMap(idsOf).sort()).toEqual(['a', 'b', 'c']);
  });
});
