// Properties of retrieval over arbitrary small subjects: the answer does
// not depend on the order documents come in, building twice changes
// nothing, and every answer keeps its own rules (topK, ranks, scores that
// add up and never rise, minScore, whole conflicts, no document twice).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildRetrievalIndex,
  DEFAULT_RETRIEVAL_POLICY,
  requireRetrievalQuery,
  retrieve,
  retrievalIndexSteps,
  sumOfContributions,
  type RetrievalDocument,
  type RetrievalIndex,
  type RetrievalPolicy,
  updateRetrievalIndex,
} from '../../../src/domain/retrieval/index.js';
import { TRUST_LEVELS } from '../../../src/domain/entry/source.js';
import { MEMORY_KINDS, SENSITIVITIES } from '../../../src/domain/entry/vocabulary.js';
import { idsOf, NOW } from './documents.js';

const WORDS = [
  'sms',
  'phone',
  'call',
  'parcel',
  'door',
  'refund',
  'order',
  'ORD-A1B2C3D4',
  'night',
  'coffee',
  '电话',
  '短信',
  '回访',
  '快递',
  '退款',
  '用户',
  'notification',
];
const KEYS = ['notification.preference', 'notification.quiet_hours', 'order.issue', 'chat.turn', 'profile.language'];

const documentArb = (id: string) =>
  fc
    .record({
      kind: fc.constantFrom(...MEMORY_KINDS),
      key: fc.constantFrom(...KEYS),
      content: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }).map((w) => w.join(' ')),
      value: fc.option(fc.constantFrom('sms', 'email', 'zh-CN'), { nil: undefined }),
      trust: fc.constantFrom(...TRUST_LEVELS),
      confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: null }),
      sensitivity: fc.constantFrom(...SENSITIVITIES),
      day: fc.integer({ min: 0, max: 900 }),
      priority: fc.option(fc.constantFrom(0, 0.5, 1), { nil: undefined }),
      conflict: fc.option(fc.constantFrom('c-1', 'c-2'), { nil: undefined }),
      vector: fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
    })
    .map((r): RetrievalDocument => ({
      id,
      kind: r.kind,
      key: r.key,
      content: r.content,
      ...(r.value !== undefined ? { value: r.value } : {}),
      trust: r.trust,
      confidence: r.confidence,
      sensitivity: r.sensitivity,
      recordedAt: new Date(Date.parse(NOW) - r.day * 86_400_000).toISOString(),
      ...(r.priority !== undefined ? { priority: r.priority } : {}),
      ...(r.conflict !== undefined ? { conflictIds: [r.conflict] } : {}),
      vector: r.vector,
    }));

const subjectArb = fc
  .integer({ min: 1, max: 25 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => documentArb(`m-${String(i).padStart(2, '0')}`))));

const questionArb = fc.record({
  query: fc.array(fc.constantFrom(...WORDS, 'what', 'the', '吗'), { minLength: 1, maxLength: 5 }).map((w) => w.join(' ')),
  topK: fc.integer({ min: 1, max: 8 }),
  minScore: fc.option(fc.double({ min: 0, max: 1.2, noNaN: true }), { nil: undefined }),
  key: fc.option(fc.constantFrom('notification.*', 'order.issue', '*'), { nil: undefined }),
  vector: fc.option(fc.array(fc.double({ min: -1, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }), { nil: undefined }),
});

/** Small pools, so the cut before grouping is exercised. */
const TIGHT: RetrievalPolicy = { ...DEFAULT_RETRIEVAL_POLICY, candidatesPerSignal: 3, rerankPool: 2 };

function run(
  documents: readonly RetrievalDocument[],
  q: { query: string; topK: number; minScore: number | undefined; key: string | undefined; vector: number[] | undefined },
  policy: RetrievalPolicy = DEFAULT_RETRIEVAL_POLICY,
) {
  const query = requireRetrievalQuery({
    query: q.query,
    topK: q.topK,
    ...(q.minScore !== undefined ? { minScore: q.minScore } : {}),
    ...(q.key !== undefined ? { key: q.key } : {}),
  });
  return retrieve(buildRetrievalIndex(documents), query, { now: NOW, policy, ...(q.vector ? { queryVector: q.vector } : {}) });
}

describe('retrieval properties', () => {
  it('does not depend on the order of the documents, and is the same every time', () => {
    fc.assert(
      fc.property(subjectArb, questionArb, fc.integer(), (documents, q, seed) => {
        const shuffled = [...documents].sort((a, b) => (hash(a.id, seed) - hash(b.id, seed)) | 0 || (a.id < b.id ? -1 : 1));
        const first = run(documents, q);
        expect(run(shuffled, q)).toEqual(first);
        expect(run(documents, q)).toEqual(first);
      }),
      { numRuns: 150 },
    );
  });

  it('keeps its rules on every answer', () => {
    fc.assert(
      fc.property(subjectArb, questionArb, fc.boolean(), (documents, q, tight) => {
        const a = run(documents, q, tight ? TIGHT : DEFAULT_RETRIEVAL_POLICY);
        expect(a.hits.length).toBeLessThanOrEqual(q.topK);
        const seen = new Set<string>();
        a.hits.forEach((hit, i) => {
          expect(hit.retrieval.rank).toBe(i + 1);
          expect(sumOfContributions(hit.retrieval.reasons)).toBeCloseTo(hit.retrieval.score, 9);
          if (i > 0) expect(hit.retrieval.score).toBeLessThanOrEqual(a.hits[i - 1]!.retrieval.score + 1e-12);
          const kept = hit.retrieval.reasons.some((r) => r.code === 'kept_for_conflict');
          if (q.minScore !== undefined && !kept) expect(hit.retrieval.score).toBeGreaterThanOrEqual(q.minScore);
          for (const id of idsOf(hit)) {
            expect(seen.has(id)).toBe(false);
            seen.add(id);
          }
          if (hit.type === 'conflict') {
            const sides = documents.filter((d) => d.conflictIds?.some((c) => hit.conflictIds.includes(c))).map((d) => d.id);
            expect(idsOf(hit).sort()).toEqual(sides.sort());
          } else {
            expect(documents.find((d) => d.id === hit.id)?.conflictIds).toBeUndefined();
          }
        });
      }),
      { numRuns: 200 },
    );
  });

  it('an index built in steps answers as one built at once, yielding between chunks', () => {
    fc.assert(
      fc.property(subjectArb, fc.integer({ min: 1, max: 7 }), questionArb, (documents, chunk, q) => {
        const steps = retrievalIndexSteps(documents, chunk);
        let yields = 0;
        let step = steps.next();
        for (; !step.done; step = steps.next()) yields += 1;
        const [stepped, built] = [step.value, buildRetrievalIndex(documents)];
        expect(yields).toBeGreaterThanOrEqual(Math.ceil(documents.length / chunk));
        expectSameStructures(stepped, built);
        const query = requireRetrievalQuery({ query: q.query, topK: q.topK, ...(q.key !== undefined ? { key: q.key } : {}) });
        const context = { now: NOW, ...(q.vector ? { queryVector: q.vector } : {}) };
        const [a, b] = [retrieve(stepped, query, context), retrieve(built, query, context)];
        expect(a.hits.map((h) => [idsOf(h), h.retrieval.rank, h.retrieval.score])).toEqual(
          b.hits.map((h) => [idsOf(h), h.retrieval.rank, h.retrieval.score]),
        );
      }),
      { numRuns: 100 },
    );
  });

  it('an index updated after a write answers as one built from the same documents', () => {
    // A write: some documents stay (the same objects), some leave, some change, some are new.
    const fates = fc.array(fc.constantFrom('keep', 'drop', 'change'), { minLength: 25, maxLength: 25 });
    fc.assert(
      fc.property(fc.tuple(subjectArb, subjectArb, fates), questionArb, ([before, others, fate], q) => {
        const after = [
          ...before.flatMap((d, i) =>
            fate[i] === 'keep' ? [d] : fate[i] === 'change' ? [{ ...others[i % others.length]!, id: d.id }] : [],
          ),
          ...others.slice(0, 3).map((d) => ({ ...d, id: `n-${d.id}` })),
        ];
        const updated = updateRetrievalIndex(buildRetrievalIndex(before), after, Number.POSITIVE_INFINITY)!;
        const built = buildRetrievalIndex(after);
        expectSameStructures(updated, built);
        const query = requireRetrievalQuery({ query: q.query, topK: q.topK, ...(q.key !== undefined ? { key: q.key } : {}) });
        const context = { now: NOW, ...(q.vector ? { queryVector: q.vector } : {}) };
        const [a, b] = [retrieve(updated, query, context), retrieve(built, query, context)];
        expect(a.hits.map((h) => [idsOf(h), h.retrieval.rank])).toEqual(b.hits.map((h) => [idsOf(h), h.retrieval.rank]));
        a.hits.forEach((h, i) => expect(h.retrieval.score).toBeCloseTo(b.hits[i]!.retrieval.score, 9));
      }),
      { numRuns: 150 },
    );
  });
});

function expectSameStructures(a: RetrievalIndex, b: RetrievalIndex): void {
  expect(a.ids).toEqual(b.ids);
  expect(a.terms).toEqual(b.terms);
  expect(a.keyTerms).toEqual(b.keyTerms);
  expect(a.slots).toEqual(b.slots);
  expect(a.conflicts).toEqual(b.conflicts);
}

function hash(text: string, seed: number): number {
  let h = seed | 0;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x9e3779b1);
  return h;
}
