// The evaluation metrics (pure) on small examples computed by hand.
import { describe, expect, it } from 'vitest';
import { aggregate, isBlocking, scoreCase, type CaseObservation, type ServedItem } from '../../src/domain/evaluation/metrics.js';

const memory = (ref: string | null, tokens = 10, cited = true): ServedItem => ({ conflict: false, tokens, memories: [{ ref, cited }] });
const conflict = (refs: readonly string[], tokens = 20): ServedItem => ({
  conflict: true,
  tokens,
  memories: refs.map((ref) => ({ ref, cited: true })),
});

const observation = (served: readonly ServedItem[], extra: Partial<CaseObservation> = {}): CaseObservation => ({
  caseId: 'c1',
  active: ['a', 'b'],
  required: ['a'],
  invalidated: [],
  conflicts: [],
  lures: [],
  served,
  ...extra,
});

describe('scoreCase', () => {
  it('counts recall and precision over the first K items, required memory all or nothing', () => {
    // Served: a, x, b, y. K=2 keeps a, x: recall 1/2, precision 1/2; a is the required one.
    const score = scoreCase(observation([memory('a'), memory('x'), memory('b'), memory('y')]), 2);
    expect(score.recallAtK).toBe(0.5);
    expect(score.precisionAtK).toBe(0.5);
    expect(score.requiredRecalled).toBe(true);
    expect(score.tokensAtK).toBe(20);
    expect(score.usefulServed).toBe(1);
    // K=4: both active, 2 of 4 useful.
    const wide = scoreCase(observation([memory('a'), memory('x'), memory('b'), memory('y')]), 4);
    expect([wide.recallAtK, wide.precisionAtK]).toEqual([1, 0.5]);
    const withoutRequired = scoreCase(observation([memory('b'), memory('a')]), 1);
    expect(withoutRequired.requiredRecalled).toBe(false);
  });

  it('judges stale and unauthorized memory over everything served, not only the first K', () => {
    const score = scoreCase(
      observation([memory('a'), memory('old'), memory('lure'), memory(null)], { invalidated: ['old'], lures: ['lure'] }),
      1,
    );
    expect(score.stale).toEqual(['old']);
    expect(score.unauthorized).toEqual(['lure', null]);
    expect(score.precisionAtK).toBe(1);
  });

  it('surfaces a conflict only when its sides come together in one conflict item', () => {
    const expected = { active: ['a', 'b'], conflicts: [['a', 'b']] };
    expect(scoreCase(observation([conflict(['a', 'b'])], expected), 5).conflictsSurfaced).toBe(true);
    expect(scoreCase(observation([memory('a'), memory('b')], expected), 5).conflictsSurfaced).toBe(false);
    expect(scoreCase(observation([memory('a')]), 5).conflictsSurfaced).toBeNull();
  });

  it('leaves a metric null when it has nothing to judge (no memory served, nothing expected)', () => {
    const score = scoreCase(observation([], { active: [], required: [] }), 5);
    expect(score).toMatchObject({ recallAtK: null, precisionAtK: null, requiredRecalled: null, stale: [], unauthorized: [] });
  });
});

describe('aggregate', () => {
  it('averages per case, rates over the cases that apply, citations and tokens over useful memories', () => {
    const o1 = observation([memory('a', 30), memory('x', 10)], { caseId: 'c1', invalidated: ['x'] });
    const o2 = observation([memory('b', 40, false), memory('a', 20)], { caseId: 'c2' });
    const o3 = observation([], { caseId: 'c3', active: ['a'], required: ['a'], invalidated: ['z'] });
    const observations = [o1, o2, o3];
    const m = aggregate(
      observations.map((o) => scoreCase(o, 5)),
      observations,
    );
    // Recall: c1 1/2, c2 2/2, c3 0/1 -> 0.5. Precision: c1 1/2, c2 2/2, c3 none served -> 0.75.
    expect(m.memoryRecallAtK).toBeCloseTo(0.5, 10);
    expect(m.memoryPrecisionAtK).toBeCloseTo(0.75, 10);
    // Required a: c1 yes, c2 yes, c3 no.
    expect(m.requiredMemoryRecall).toBeCloseTo(2 / 3, 10);
    // Stale: c1 served x (invalidated), c3 served nothing; c2 has no invalidated memory.
    expect(m.staleMemoryRate).toBe(0.5);
    expect(m.staleServed).toBe(1);
    // Useful memories served: c1 a; c2 b (not cited), a -> 3, 2 cited. Tokens 40 + 60 over 3.
    expect(m.sourceCitationAccuracy).toBeCloseTo(2 / 3, 10);
    expect(m.tokensPerUsefulMemory).toBeCloseTo(100 / 3, 10);
    expect(m.unauthorizedRetrievalRate).toBe(0);
    expect(m.conflictSurfacingRate).toBeNull();
    expect(isBlocking(m)).toBe(true);
  });

  it('is blocking on one unauthorized memory among many clean cases, and not when nothing bad was served', () => {
    const clean = Array.from({ length: 99 }, (_, i) => observation([memory('a')], { caseId: `ok${i}` }));
    const leak = observation([memory('a'), memory('lure')], { caseId: 'leak', lures: ['lure'] });
    const all = [...clean, leak];
    const m = aggregate(
      all.map((o) => scoreCase(o, 5)),
      all,
    );
    expect(m.unauthorizedRetrievalRate).toBeCloseTo(0.01, 10);
    expect(isBlocking(m)).toBe(true);
    const cleanOnly = aggregate(
      clean.map((o) => scoreCase(o, 5)),
      clean,
    );
    expect(isBlocking(cleanOnly)).toBe(false);
  });
});
