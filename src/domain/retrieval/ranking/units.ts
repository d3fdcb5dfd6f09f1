// Scored documents become hits ("units"): the sides of an open conflict
// always as one hit (seed 003: a conflict never returns one side only),
// near-duplicates collapsed into one hit that says how many said it (seed
// 003: synonymous duplicates must not fill the top-k), every other
// document its own hit.
import { trustRank } from '../../entry/source.js';
import type { IndexedDocument, RetrievalIndex } from '../corpus/retrieval-index.js';
import { jaccardAtMost } from '../corpus/term-signature.js';
import { cosine } from '../signals/semantic.js';
import type { RetrievalPolicy } from './policy.js';
import type { RetrievalReason } from './reasons.js';
import type { Scored } from './score.js';

export interface Unit {
  readonly type: 'memory' | 'conflict';
  /** The representative: the best-scored member (memory), the side shown first (conflict). */
  readonly id: string;
  /** Memory: the representative then the duplicates it stands for. Conflict: the sides, most trusted first. */
  readonly members: readonly Scored[];
  readonly conflictIds: readonly string[];
  readonly score: number;
  readonly reasons: readonly RetrievalReason[];
  readonly keyMatched: boolean;
}

export const compareIds = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
export const byScore = (a: { score: number; id: string }, b: { score: number; id: string }): number =>
  b.score - a.score || compareIds(a.id, b.id);

/** Union-find over ids, roots chosen by id order so the grouping does not depend on the order of unions. */
function groups(ids: readonly string[], pairs: Iterable<readonly [string, string]>): string[][] {
  const parent = new Map(ids.map((id) => [id, id]));
  const root = (id: string): string => {
    let r = id;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(id, r);
    return r;
  };
  for (const [a, b] of pairs) {
    const ra = root(a);
    const rb = root(b);
    if (ra !== rb) parent.set(ra < rb ? rb : ra, ra < rb ? ra : rb);
  }
  const out = new Map<string, string[]>();
  for (const id of ids) {
    const r = root(id);
    const members = out.get(r);
    if (members) members.push(id);
    else out.set(r, [id]);
  }
  return [...out.values()];
}

const trustOf = (index: RetrievalIndex, id: string) => trustRank(index.documents.get(id)!.document.trust);

function conflictUnit(index: RetrievalIndex, sides: Scored[]): Unit {
  const ordered = [...sides].sort((a, b) => trustOf(index, b.id) - trustOf(index, a.id) || byScore(a, b));
  const best = [...sides].sort(byScore)[0]!;
  const conflictIds = [...new Set(sides.flatMap((s) => index.documents.get(s.id)!.document.conflictIds ?? []))].sort(compareIds);
  return {
    type: 'conflict',
    id: ordered[0]!.id,
    members: ordered,
    conflictIds,
    score: best.score,
    reasons: best.reasons,
    keyMatched: sides.some((s) => s.keyMatched),
  };
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let shared = 0;
  for (const term of a.size <= b.size ? a : b) if ((a.size <= b.size ? b : a).has(term)) shared += 1;
  return shared / (a.size + b.size - shared);
}

/**
 * Pairs whose statement terms are nearly the same (Jaccard at least
 * `threshold`). Jaccard is at most |smaller| / |larger|: taken in order of
 * size, each document is compared with the next ones only while their
 * sizes allow it, and within that by their signatures before their terms.
 */
function lexicalPairs(docs: readonly IndexedDocument[], threshold: number, into: Array<[string, string]>): void {
  const size = (d: IndexedDocument) => d.statementTerms.size;
  const bySize = [...docs].sort((a, b) => size(a) - size(b));
  for (let i = 0; i < bySize.length; i++) {
    const a = bySize[i]!;
    for (let j = i + 1; j < bySize.length; j++) {
      const b = bySize[j]!;
      if (size(a) < threshold * size(b)) break;
      if (
        jaccardAtMost(size(a), a.statementSignature, size(b), b.statementSignature) >= threshold &&
        jaccard(a.statementTerms, b.statementTerms) >= threshold
      )
        into.push([a.document.id, b.document.id]);
    }
  }
}

/** Pairs whose embeddings are nearly the same (cosine at least `minCosine`). */
function embeddingPairs(docs: readonly IndexedDocument[], minCosine: number, into: Array<[string, string]>): void {
  const embedded = docs.filter((d) => d.document.vector);
  for (let i = 0; i < embedded.length; i++) {
    const a = embedded[i]!;
    for (let j = i + 1; j < embedded.length; j++) {
      const b = embedded[j]!;
      if (cosine(a.document.vector!, a.vectorNorm, b.document.vector!, b.vectorNorm) >= minCosine)
        into.push([a.document.id, b.document.id]);
    }
  }
}

/** Pairs of near-duplicates, in no particular order (groups() does not depend on it): the same statement, or texts (or embeddings) nearly the same. */
function duplicatePairs(docs: readonly IndexedDocument[], policy: RetrievalPolicy): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const byStatement = new Map<string, string>();
  for (const d of docs) {
    if (d.statement === undefined) continue;
    const first = byStatement.get(d.statement);
    if (first === undefined) byStatement.set(d.statement, d.document.id);
    else pairs.push([first, d.document.id]);
  }
  lexicalPairs(docs, policy.duplicateSimilarity, pairs);
  embeddingPairs(docs, policy.duplicateCosine, pairs);
  return pairs;
}

function memoryUnit(members: Scored[], policy: RetrievalPolicy): Unit {
  const ordered = [...members].sort(byScore);
  const best = ordered[0]!;
  const reasons: RetrievalReason[] = [...best.reasons];
  if (ordered.length > 1) {
    reasons.push({
      code: 'duplicates_collapsed',
      contribution: policy.weights.corroboration * Math.log2(ordered.length),
      count: ordered.length,
      members: ordered.slice(1).map((m) => m.id),
    });
  }
  let score = 0;
  for (const r of reasons) score += r.contribution;
  return { type: 'memory', id: best.id, members: ordered, conflictIds: [], score, reasons, keyMatched: ordered.some((m) => m.keyMatched) };
}

/** `scored` best first. */
export function formUnits(index: RetrievalIndex, scored: readonly Scored[], policy: RetrievalPolicy): Unit[] {
  const byId = new Map(scored.map((s) => [s.id, s]));
  const inConflict = scored.filter((s) => (index.documents.get(s.id)!.document.conflictIds ?? []).length > 0);
  const conflictPairs: Array<[string, string]> = [];
  for (const members of index.conflicts.values()) {
    const present = members.filter((id) => byId.has(id));
    for (let i = 1; i < present.length; i++) conflictPairs.push([present[0]!, present[i]!]);
  }
  const units: Unit[] = groups(
    inConflict.map((s) => s.id),
    conflictPairs,
  ).map((ids) =>
    conflictUnit(
      index,
      ids.map((id) => byId.get(id)!),
    ),
  );

  const rest = scored.filter((s) => (index.documents.get(s.id)!.document.conflictIds ?? []).length === 0);
  const pairs = duplicatePairs(
    rest.map((s) => index.documents.get(s.id)!),
    policy,
  );
  for (const ids of groups(
    rest.map((s) => s.id),
    pairs,
  ))
    units.push(
      memoryUnit(
        ids.map((id) => byId.get(id)!),
        policy,
      ),
    );
  return units.sort(byScore);
}
