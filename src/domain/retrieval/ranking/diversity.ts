// Maximal marginal relevance (Carbonell & Goldstein 1998) before the count
// cap: hits are taken greedily, each time the one whose score minus
// `diversity` x (its highest similarity to a hit already taken) is best.
// That adjusted value is the hit's score, so scores never rise down the
// list, and `minScore` cuts where the list falls below it. Open conflicts
// on a key the query matched still show when nothing clears minScore.
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import { jaccardAtMost } from '../corpus/term-signature.js';
import { cosine } from '../signals/semantic.js';
import type { RetrievalPolicy } from './policy.js';
import type { RetrievalReason } from './reasons.js';
import { compareIds, jaccard, type Unit } from './units.js';

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
  const remaining = units.map((unit) => ({ unit, compared: comparable(index, unit), maxSim: 0, similarTo: '' }));
  const selected: Selected[] = [];
  const take = (i: number, extra: RetrievalReason[]) => {
    const { unit, compared, maxSim, similarTo } = remaining.splice(i, 1)[0]!;
    const reasons: RetrievalReason[] = [...unit.reasons];
    if (maxSim > 0 && mu > 0) reasons.push({ code: 'diversity', contribution: -mu * maxSim, similarTo, similarity: maxSim });
    reasons.push(...extra);
    selected.push({ unit, score: unit.score - mu * maxSim, reasons });
    for (const r of remaining) {
      const sim = similarityAbove(r.compared, compared, r.maxSim);
      if (sim > r.maxSim) {
        r.maxSim = sim;
        r.similarTo = unit.id;
      }
    }
  };
  const best = () => {
    let at = -1;
    let value = -Infinity;
    remaining.forEach((r, i) => {
      const v = r.unit.score - mu * r.maxSim;
      if (v > value || (v === value && at >= 0 && compareIds(r.unit.id, remaining[at]!.unit.id) < 0)) {
        at = i;
        value = v;
      }
    });
    return { at, value };
  };
  let stoppedByFloor = false;
  while (selected.length < topK && remaining.length > 0) {
    const { at, value } = best();
    if (minScore !== undefined && value < minScore) {
      stoppedByFloor = true;
      break;
    }
    take(at, []);
  }
  if (!stoppedByFloor) return { selected, belowMinScore: 0 };
  while (selected.length < topK) {
    const at = remaining.findIndex((r) => r.unit.type === 'conflict' && r.unit.keyMatched);
    if (at < 0) break;
    take(at, [{ code: 'kept_for_conflict', contribution: 0, minScore: minScore! }]);
  }
  return { selected, belowMinScore: remaining.length };
}
