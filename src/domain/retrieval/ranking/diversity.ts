// Maximal marginal relevance (Carbonell & Goldstein 1998) before the count
// cap: hits are taken greedily, each time the one whose score minus
// `diversity` x (its highest similarity to a hit already taken) is best,
// lazily: only units that can still be the best are compared with the hits
// (a query's hundreds of candidates were each compared with every hit).
// That adjusted value is the hit's score, so scores never rise down the
// list, and `minScore` cuts where the list falls below it. Open conflicts
// on a key the query matched still show when nothing clears minScore.
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import { jaccardAtMost } from '../corpus/term-signature.js';
import { cosine } from '../signals/semantic.js';
import type { RetrievalPolicy } from './policy.js';
import type { RetrievalReason } from './reasons.js';
import { byScore, compareIds, jaccard, type Unit } from './units.js';

export interface Selected {
  readonly unit: Unit;
  readonly score: number;
  readonly reasons: readonly RetrievalReason[];
}

interface Comparable {
  readonly terms: ReadonlySet<string>;
  /** The terms' signature (term-signature.ts). */
  readonly signature: number;
  readonly vector: readonly number[] | undefined;
  readonly norm: number;
}

interface Candidate {
  readonly unit: Unit;
  readonly compared: Comparable;
  /** The highest similarity to a hit taken (of the first `seen`), and that hit's id. */
  maxSim: number;
  similarTo: string;
  seen: number;
  taken: boolean;
}

/** What a hit is compared by: its terms (a conflict: all its sides'), its representative's embedding. */
function comparable(index: RetrievalIndex, unit: Unit): Comparable {
  const rep = index.documents.get(unit.id)!;
  if (unit.type !== 'conflict') {
    return { terms: rep.statementTerms, signature: rep.statementSignature, vector: rep.document.vector, norm: rep.vectorNorm };
  }
  const sides = unit.members.map((m) => index.documents.get(m.id)!);
  // A union's signature is its parts' together.
  const signature = sides.reduce((bits, side) => bits | side.statementSignature, 0);
  return {
    terms: new Set(sides.flatMap((side) => [...side.statementTerms])),
    signature,
    vector: rep.document.vector,
    norm: rep.vectorNorm,
  };
}

/**
 * The similarity of a and b where it exceeds `above`; where it cannot, any
 * value up to `above`. Only a similarity above the highest so far is kept,
 * so pairs whose terms cannot be that similar are not compared term by term.
 */
function similarityAbove(a: Comparable, b: Comparable, above: number): number {
  const lexical = jaccardAtMost(a.terms.size, a.signature, b.terms.size, b.signature) > above ? jaccard(a.terms, b.terms) : 0;
  return a.vector && b.vector ? Math.max(lexical, cosine(a.vector, a.norm, b.vector, b.norm)) : lexical;
}

export function diversify(
  index: RetrievalIndex,
  units: readonly Unit[],
  topK: number,
  minScore: number | undefined,
  policy: RetrievalPolicy,
): { selected: Selected[]; belowMinScore: number } {
  const mu = policy.penalties.diversity;
  const remaining: Candidate[] = units.map((unit) => ({
    unit,
    compared: comparable(index, unit),
    maxSim: 0,
    similarTo: '',
    seen: 0,
    taken: false,
  }));
  // Highest score first (ties: lower id): a penalty only lowers a score, so the search for the best stops at the
  // first unit whose own score is below the best adjusted value found (with a penalty that could raise one,
  // every unit is looked at).
  const ranked = [...remaining].sort((a, b) => byScore(a.unit, b.unit));
  const selected: Selected[] = [];
  const taken: Comparable[] = [];
  // A unit is compared with the hits taken since it was last looked at, in the order they were taken: its highest
  // similarity (and to which hit) is what comparing it with each hit as it was taken would have found.
  const catchUp = (r: Candidate) => {
    for (; r.seen < taken.length; r.seen++) {
      const sim = similarityAbove(r.compared, taken[r.seen]!, r.maxSim);
      if (sim > r.maxSim) {
        r.maxSim = sim;
        r.similarTo = selected[r.seen]!.unit.id;
      }
    }
  };
  const take = (r: Candidate, extra: RetrievalReason[]) => {
    catchUp(r);
    remaining.splice(remaining.indexOf(r), 1);
    r.taken = true;
    const { unit, compared, maxSim, similarTo } = r;
    const reasons: RetrievalReason[] = [...unit.reasons];
    if (maxSim > 0 && mu > 0) reasons.push({ code: 'diversity', contribution: -mu * maxSim, similarTo, similarity: maxSim });
    reasons.push(...extra);
    selected.push({ unit, score: unit.score - mu * maxSim, reasons });
    taken.push(compared);
  };
  const best = () => {
    let at: Candidate | undefined;
    let value = -Infinity;
    for (const r of ranked) {
      if (r.taken) continue;
      if (mu >= 0 && r.unit.score < value) break;
      catchUp(r);
      const v = r.unit.score - mu * r.maxSim;
      if (v > value || (v === value && at !== undefined && compareIds(r.unit.id, at.unit.id) < 0)) {
        at = r;
        value = v;
      }
    }
    return { at, value };
  };
  let stoppedByFloor = false;
  while (selected.length < topK && remaining.length > 0) {
    const { at, value } = best();
    if (at === undefined) break;
    if (minScore !== undefined && value < minScore) {
      stoppedByFloor = true;
      break;
    }
    take(at, []);
  }
  if (!stoppedByFloor) return { selected, belowMinScore: 0 };
  while (selected.length < topK) {
    const conflict = remaining.find((r) => r.unit.type === 'conflict' && r.unit.keyMatched);
    if (!conflict) break;
    take(conflict, [{ code: 'kept_for_conflict', contribution: 0, minScore: minScore! }]);
  }
  return { selected, belowMinScore: remaining.length };
}
