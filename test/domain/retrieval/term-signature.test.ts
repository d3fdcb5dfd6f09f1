// Near-duplicates and diversity rule most pairs out by their statement
// terms' signatures (corpus/term-signature.ts) before comparing the terms:
// the bound must never fall below the Jaccard similarity (or a pair of
// near-duplicates would go uncollapsed, a diversity penalty unpaid), and
// retrieval must answer exactly as it does when no pair can be ruled out
// (every signature all ones leaves only the size bound that was there before).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildRetrievalIndex,
  requireRetrievalQuery,
  retrieve,
  type RetrievalDocument,
  type RetrievalIndex,
} from '../../../src/domain/retrieval/index.js';
import { jaccardAtMost, termSignature } from '../../../src/domain/retrieval/corpus/term-signature.js';
import { jaccard } from '../../../src/domain/retrieval/ranking/units.js';
import { doc, NOW } from './documents.js';

// More words than a signature has bits: different terms share bits.
const VOCABULARY = Array.from({ length: 90 }, (_, i) => `w${i.toString(36)}${'xyz'[i % 3]}`);
const termsArb = fc.uniqueArray(fc.constantFrom(...VOCABULARY), { maxLength: 40 }).map((terms) => new Set(terms));

describe('statement term signatures', () => {
  it('bound the Jaccard similarity from above, whatever bits the terms share', () => {
    fc.assert(
      fc.property(termsArb, termsArb, (a, b) => {
        const bound = jaccardAtMost(a.size, termSignature(a), b.size, termSignature(b));
        expect(bound).toBeGreaterThanOrEqual(jaccard(a, b));
      }),
      { numRuns: 3000 },
    );
  });

  it('bound a set against itself at 1, and sets with no bit in common at 0', () => {
    const a = new Set(['sms', 'only', 'never', 'phone']);
    expect(jaccardAtMost(a.size, termSignature(a), a.size, termSignature(a))).toBe(1);
    expect(jaccardAtMost(1, 0b01, 1, 0b10)).toBe(0);
    expect(jaccardAtMost(0, 0, 3, 0b111)).toBe(0);
  });

  it('of a union are the parts’ signatures together', () => {
    fc.assert(
      fc.property(termsArb, termsArb, (a, b) => {
        expect(termSignature(new Set([...a, ...b]))).toBe(termSignature(a) | termSignature(b));
      }),
    );
  });
});

/** The same index with nothing ruled out by signature: each one all ones. */
function unsigned(index: RetrievalIndex): RetrievalIndex {
  const documents = new Map([...index.documents].map(([id, d]) => [id, { ...d, statementSignature: -1 }]));
  return { ...index, documents };
}

const SENTENCES = [
  'never phone her sms or email only please',
  'deliver the parcel to the back door after six',
  'refund for order ORD-A1B2 approved by billing',
  'the weekly sync moved to tuesday morning',
];
const FILLER = ['today', 'again', 'customer', 'said', 'note', 'urgent'];

/** Documents that repeat a few sentences with a word or two changed: many near-duplicates, many partial overlaps. */
const subjectArb = fc
  .array(
    fc.record({
      sentence: fc.nat({ max: SENTENCES.length - 1 }),
      drop: fc.option(fc.nat({ max: 8 }), { nil: undefined }),
      add: fc.subarray(FILLER, { maxLength: 2 }),
      keyed: fc.boolean(),
      conflict: fc.option(fc.constantFrom('c-1', 'c-2'), { nil: undefined }),
      day: fc.nat({ max: 400 }),
    }),
    { minLength: 2, maxLength: 40 },
  )
  .map((rows) =>
    rows.map((r, i): RetrievalDocument => {
      const words = SENTENCES[r.sentence]!.split(' ').filter((_, j) => j !== r.drop);
      const id = `m-${String(i).padStart(2, '0')}`;
      return doc(id, {
        kind: r.keyed ? 'profile' : 'episodic',
        key: r.keyed ? `fact.s${r.sentence}` : 'chat.turn',
        content: [...words, ...r.add].join(' '),
        ...(r.conflict !== undefined && r.keyed ? { conflictIds: [r.conflict] } : {}),
        recordedAt: new Date(Date.parse(NOW) - r.day * 86_400_000).toISOString(),
      });
    }),
  );

const NATO =
  'alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec romeo sierra tango'.split(' ');

describe('retrieval with statement signatures', () => {
  it('still collapses near-duplicates at exactly the threshold (17 terms shared of 20: 0.85)', () => {
    const shared = NATO.slice(0, 17);
    const a = doc('a', { kind: 'episodic', key: 'chat.turn', content: [...shared, NATO[17]].join(' ') });
    const b = doc('b', { kind: 'episodic', key: 'chat.turn', content: [...shared, NATO[18], NATO[19]].join(' ') });
    const c = doc('c', { kind: 'episodic', key: 'chat.turn', content: [...shared.slice(0, 16), NATO[18], NATO[19], 'zulu'].join(' ') });
    const index = buildRetrievalIndex([a, b, c]);
    const terms = (id: string) => index.documents.get(id)!.statementTerms;
    expect(jaccard(terms('a'), terms('b'))).toBe(0.85);
    // c is b's near-duplicate (18 of 20), not a's: the three are one hit.
    expect(jaccard(terms('a'), terms('c'))).toBeLessThan(0.85);
    expect(jaccard(terms('b'), terms('c'))).toBe(0.9);
    const answer = retrieve(index, requireRetrievalQuery({ query: 'alpha bravo', topK: 5 }), { now: NOW });
    expect(answer.hits.map((h) => (h.type === 'memory' ? [...h.members].sort() : []))).toEqual([['a', 'b', 'c']]);
  });

  it('answers as it does when no pair is ruled out by them', () => {
    const queryArb = fc.record({
      query: fc.constantFrom('phone sms', 'parcel door', 'refund order', 'weekly sync', 'customer note today', 'ORD-A1B2'),
      topK: fc.integer({ min: 1, max: 12 }),
    });
    fc.assert(
      fc.property(subjectArb, queryArb, (documents, q) => {
        const index = buildRetrievalIndex(documents);
        const query = requireRetrievalQuery(q);
        expect(retrieve(index, query, { now: NOW })).toEqual(retrieve(unsigned(index), query, { now: NOW }));
      }),
      { numRuns: 300 },
    );
  });
});
