// Near-duplicates are found without comparing every pair term by term
// (ranking/units.ts: in order of size, while sizes allow, signatures
// first; embeddings on their own): the hits formed must be those that
// comparing every pair finds — the same statement, Jaccard of the
// statement terms at least duplicateSimilarity, or cosine at least
// duplicateCosine — joined transitively.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRetrievalIndex, DEFAULT_RETRIEVAL_POLICY, type RetrievalDocument } from '../../../src/domain/retrieval/index.js';
import type { IndexedDocument } from '../../../src/domain/retrieval/corpus/retrieval-index.js';
import { cosine } from '../../../src/domain/retrieval/signals/semantic.js';
import { formUnits, jaccard } from '../../../src/domain/retrieval/ranking/units.js';
import { doc } from './documents.js';

const SENTENCES = [
  'never phone her sms or email only please',
  'deliver the parcel to the back door after six',
  'refund for order approved by billing today',
  'sync moved',
];
const FILLER = ['today', 'again', 'customer', 'said', 'note', 'urgent', 'sms'];
const VECTORS = [
  [1, 0, 0],
  [0.99, 0.05, 0],
  [0, 1, 0],
  [0, 0.2, 1],
];

const subjectArb = fc
  .array(
    fc.record({
      sentence: fc.nat({ max: SENTENCES.length - 1 }),
      drop: fc.subarray([0, 1, 2, 3, 4, 5, 6, 7, 8], { maxLength: 3 }),
      add: fc.subarray(FILLER, { maxLength: 3 }),
      keyed: fc.boolean(),
      vector: fc.option(fc.nat({ max: VECTORS.length - 1 }), { nil: undefined }),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rows) =>
    rows.map((r, i): RetrievalDocument => {
      const words = SENTENCES[r.sentence]!.split(' ').filter((_, j) => !r.drop.includes(j));
      return doc(`m-${String(i).padStart(2, '0')}`, {
        kind: r.keyed ? 'profile' : 'episodic',
        key: r.keyed ? `fact.s${r.sentence}` : 'chat.turn',
        content: [...words, ...r.add].join(' '),
        value: r.keyed ? SENTENCES[r.sentence]!.split(' ')[0]! : undefined,
        ...(r.vector !== undefined ? { vector: VECTORS[r.vector]! } : {}),
      });
    }),
  );

/** Every pair compared, joined transitively: each group's ids, sorted. */
function comparedPairwise(docs: readonly IndexedDocument[]): string[][] {
  const policy = DEFAULT_RETRIEVAL_POLICY;
  const group = new Map(docs.map((d) => [d.document.id, new Set([d.document.id])]));
  const join = (a: string, b: string) => {
    const [ga, gb] = [group.get(a)!, group.get(b)!];
    if (ga === gb) return;
    for (const id of gb) {
      ga.add(id);
      group.set(id, ga);
    }
  };
  for (const a of docs)
    for (const b of docs) {
      if (a === b) continue;
      const va = a.document.vector;
      const vb = b.document.vector;
      if (
        (a.statement !== undefined && a.statement === b.statement) ||
        jaccard(a.statementTerms, b.statementTerms) >= policy.duplicateSimilarity ||
        (va && vb && cosine(va, a.vectorNorm, vb, b.vectorNorm) >= policy.duplicateCosine)
      )
        join(a.document.id, b.document.id);
    }
  return [...new Set(group.values())].map((g) => [...g].sort()).sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
}

describe('near-duplicates', () => {
  it('form the hits that comparing every pair forms', () => {
    fc.assert(
      fc.property(subjectArb, (documents) => {
        const index = buildRetrievalIndex(documents);
        const scored = index.ids.map((id, i) => ({ id, score: 1 - i / 100, keyMatched: false, reasons: [] }));
        const units = formUnits(index, scored, DEFAULT_RETRIEVAL_POLICY);
        const formed = units.map((u) => u.members.map((m) => m.id).sort()).sort((x, y) => (x[0]! < y[0]! ? -1 : 1));
        expect(formed).toEqual(comparedPairwise([...index.documents.values()]));
      }),
      { numRuns: 400 },
    );
  });
});
