// Diversity (MMR, src/domain/retrieval/ranking/diversity.ts) compares a
// candidate with the hits taken only when it can still be the best, and
// answers as the plain greedy form does: every remaining candidate compared
// with each hit as it is taken, the best (ties: lower id) taken next. The
// plain form is written out here as the oracle.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRetrievalIndex, DEFAULT_RETRIEVAL_POLICY, type RetrievalIndex } from '../../../src/domain/retrieval/index.js';
import { diversify } from '../../../src/domain/retrieval/ranking/diversity.js';
import type { RetrievalReason } from '../../../src/domain/retrieval/ranking/reasons.js';
import { compareIds, jaccard, type Unit } from '../../../src/domain/retrieval/ranking/units.js';
import { cosine } from '../../../src/domain/retrieval/signals/semantic.js';
import { doc } from './documents.js';

const WORDS = ['sms', 'phone', 'call', 'parcel', 'door', 'refund', 'order', 'night', '电话', '短信', '快递'];

/** The plain greedy MMR, with exact similarities. */
function greedy(index: RetrievalIndex, units: readonly Unit[], topK: number, minScore: number | undefined, mu: number) {
  const sides = (unit: Unit) => (unit.type === 'conflict' ? unit.members.map((m) => m.id) : [unit.id]);
  const terms = (unit: Unit) => new Set(sides(unit).flatMap((id) => [...index.documents.get(id)!.statementTerms]));
  const similarity = (a: Unit, b: Unit) => {
    const [x, y] = [index.documents.get(a.id)!, index.documents.get(b.id)!];
    const lexical = jaccard(terms(a), terms(b));
    const { vector: u } = x.document;
    const { vector: v } = y.document;
    return u && v ? Math.max(lexical, cosine(u, x.vectorNorm, v, y.vectorNorm)) : lexical;
  };
  const remaining = units.map((unit) => ({ unit, maxSim: 0, similarTo: '' }));
  const selected: Array<{ unit: Unit; score: number; reasons: RetrievalReason[] }> = [];
  const take = (i: number, extra: RetrievalReason[]) => {
    const { unit, maxSim, similarTo } = remaining.splice(i, 1)[0]!;
    const reasons: RetrievalReason[] = [...unit.reasons];
    if (maxSim > 0 && mu > 0) reasons.push({ code: 'diversity', contribution: -mu * maxSim, similarTo, similarity: maxSim });
    reasons.push(...extra);
    selected.push({ unit, score: unit.score - mu * maxSim, reasons });
    for (const r of remaining) {
      const sim = similarity(r.unit, unit);
      if (sim > r.maxSim) [r.maxSim, r.similarTo] = [sim, unit.id];
    }
  };
  let stoppedByFloor = false;
  while (selected.length < topK && remaining.length > 0) {
    let at = 0;
    remaining.forEach((r, i) => {
      const [v, w] = [r.unit.score - mu * r.maxSim, remaining[at]!.unit.score - mu * remaining[at]!.maxSim];
      if (v > w || (v === w && compareIds(r.unit.id, remaining[at]!.unit.id) < 0)) at = i;
    });
    if (minScore !== undefined && remaining[at]!.unit.score - mu * remaining[at]!.maxSim < minScore) {
      stoppedByFloor = true;
      break;
    }
    take(at, []);
  }
  if (!stoppedByFloor) return { selected, belowMinScore: 0 };
  for (let at; selected.length < topK && (at = remaining.findIndex((r) => r.unit.type === 'conflict' && r.unit.keyMatched)) >= 0;)
    take(at, [{ code: 'kept_for_conflict', contribution: 0, minScore: minScore! }]);
  return { selected, belowMinScore: remaining.length };
}

const documentArb = fc.record({
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 5 }),
  vector: fc.option(fc.array(fc.constantFrom(-1, -0.5, 0, 0.5, 1), { minLength: 3, maxLength: 3 }), { nil: undefined }),
  // Few distinct scores: ties, and penalised hits falling behind others, are common.
  score: fc.constantFrom(0.2, 0.5, 0.5, 0.8, 1),
  keyMatched: fc.boolean(),
});

describe('diversity', () => {
  it('takes the hits the plain greedy MMR takes, with the same scores and reasons', () => {
    fc.assert(
      fc.property(
        fc.array(documentArb, { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 4 }),
        fc.integer({ min: 1, max: 12 }),
        fc.option(fc.constantFrom(0.1, 0.45, 0.7), { nil: undefined }),
        fc.constantFrom(0, 0.1, 0.4, 1, -0.2),
        (specs, conflicts, topK, minScore, mu) => {
          const ids = specs.map((_, i) => `m-${String(i).padStart(2, '0')}`);
          const index = buildRetrievalIndex(
            specs.map((s, i) => doc(ids[i]!, { content: s.words.join(' '), ...(s.vector ? { vector: s.vector } : {}) })),
          );
          // Conflicts: pairs of the first documents, as one unit each; the rest memories of their own.
          const paired = Math.min(conflicts, Math.floor(specs.length / 2));
          const member = (i: number) => ({ id: ids[i]! }) as Unit['members'][number];
          const units: Unit[] = [
            ...Array.from({ length: paired }, (_, c): Unit => ({
              type: 'conflict',
              id: ids[2 * c]!,
              members: [member(2 * c), member(2 * c + 1)],
              conflictIds: [`c-${c}`],
              score: specs[2 * c]!.score,
              reasons: [],
              keyMatched: specs[2 * c]!.keyMatched,
            })),
            ...specs.slice(2 * paired).map((s, i): Unit => ({
              type: 'memory',
              id: ids[2 * paired + i]!,
              members: [member(2 * paired + i)],
              conflictIds: [],
              score: s.score,
              reasons: [],
              keyMatched: s.keyMatched,
            })),
          ];
          const policy = { ...DEFAULT_RETRIEVAL_POLICY, penalties: { ...DEFAULT_RETRIEVAL_POLICY.penalties, diversity: mu } };
          expect(diversify(index, units, topK, minScore, policy)).toEqual(greedy(index, units, topK, minScore, mu));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a hit whose penalty brings it level with a lower-scored one gives way to the lower id', () => {
    // m-00 is taken first; m-02 then shares half its terms (1 - 1 x 0.5) and ties m-01's 0.5.
    const index = buildRetrievalIndex([
      doc('m-00', { content: 'sms' }),
      doc('m-01', { content: 'refund' }),
      doc('m-02', { content: 'sms phone' }),
    ]);
    const unit = (id: string, score: number): Unit => ({
      type: 'memory',
      id,
      members: [{ id } as Unit['members'][number]],
      conflictIds: [],
      score,
      reasons: [],
      keyMatched: false,
    });
    const units = [unit('m-00', 1), unit('m-02', 1), unit('m-01', 0.5)];
    const policy = { ...DEFAULT_RETRIEVAL_POLICY, penalties: { ...DEFAULT_RETRIEVAL_POLICY.penalties, diversity: 1 } };
    const answer = diversify(index, units, 3, undefined, policy);
    expect(answer.selected.map((s) => [s.unit.id, s.score])).toEqual([
      ['m-00', 1],
      ['m-01', 0.5],
      ['m-02', 0.5],
    ]);
    expect(answer).toEqual(greedy(index, units, 3, undefined, 1));
  });
});
