// Seed 003's read pipeline from candidate retrieval on (the hard filters —
// tenant, namespace, scopes, sensitivity, validity — are recall's, applied
// before documents reach an index): filters (kind, key) -> candidate
// signals (exact key, BM25, cosine) -> reciprocal rank fusion -> slot and
// conflict siblings -> trust/freshness rerank -> conflict groups and
// near-duplicates -> trust precedence within a slot -> MMR -> minScore ->
// topK. Pure and deterministic: `now` is passed in; every order breaks
// ties by id; the documents' order does not matter.
import { InvalidInput } from '../validation/invalid-input.js';
import type { RetrievalIndex } from './corpus/retrieval-index.js';
import type { RetrievalAnswer, RetrievalHit } from './hits.js';
import { diversify, type Selected } from './ranking/diversity.js';
import { fuse, type Relevance } from './ranking/fusion.js';
import { DEFAULT_RETRIEVAL_POLICY, type RetrievalPolicy } from './ranking/policy.js';
import { applyTrustPrecedence } from './ranking/precedence.js';
import type { RetrievalReason } from './ranking/reasons.js';
import { scoreDocument, type Scored } from './ranking/score.js';
import { byScore, compareIds, formUnits } from './ranking/units.js';
import { keyMatcher } from './request/key-pattern.js';
import type { RetrievalQuery } from './request/query.js';
import { keyMatches } from './signals/key.js';
import { lexicalMatches } from './signals/lexical.js';
import { semanticMatches } from './signals/semantic.js';
import { rankSignal } from './signals/signal.js';
import { tokenize } from './text/tokenize.js';

export interface RetrievalContext {
  /** ISO instant: freshness and staleness are judged at it. */
  readonly now: string;
  /** The query's embedding, when an embedding port is configured. */
  readonly queryVector?: readonly number[];
  readonly policy?: RetrievalPolicy;
}

export function retrieve(index: RetrievalIndex, query: RetrievalQuery, context: RetrievalContext): RetrievalAnswer {
  const now = Date.parse(context.now);
  if (Number.isNaN(now)) throw new InvalidInput('now', 'must be an ISO 8601 instant');
  const policy = context.policy ?? DEFAULT_RETRIEVAL_POLICY;
  const terms = [...new Set(tokenize(query.query))];
  const matchesKey = query.key === undefined ? undefined : keyMatcher(query.key);
  const accept = (id: string) => {
    const d = index.documents.get(id)!.document;
    return (query.kind === undefined || d.kind === query.kind) && (matchesKey === undefined || matchesKey(d.key));
  };
  const accepted = query.kind === undefined && matchesKey === undefined ? index.ids : index.ids.filter(accept);
  const limit = Math.max(policy.candidatesPerSignal, 4 * query.topK);
  const signals = [
    rankSignal('key', keyMatches(index, terms, accepted, accept, query.key, policy), limit),
    // Without a filter BM25 is not asked to check each document it finds.
    rankSignal('lexical', lexicalMatches(index, terms, accepted === index.ids ? undefined : accept, limit, policy), limit),
    rankSignal('semantic', semanticMatches(index, context.queryVector, accepted, policy), limit),
  ];
  const relevance = fuse(signals, policy);
  const scored = withSiblings(index, relevance, accept).map(({ id, relevance: r, context: reasons }) =>
    scoreDocument(index.documents.get(id)!, r, [...r.signals, ...reasons], now, policy),
  );
  const pool = rerankPool(index, scored.sort(byScore), Math.max(policy.rerankPool, 4 * query.topK));
  const units = applyTrustPrecedence(index, formUnits(index, pool, policy));
  const { selected, belowMinScore } = diversify(index, units, query.topK, query.minScore, policy);
  return {
    terms,
    hits: selected.map((s, i) => toHit(index, s, i + 1)),
    considered: scored.length,
    signals: { key: signals[0]!.matches.length, lexical: signals[1]!.matches.length, semantic: signals[2]!.matches.length },
    belowMinScore,
  };
}

interface Candidate {
  readonly id: string;
  readonly relevance: Relevance;
  readonly context: RetrievalReason[];
}

/**
 * The candidates, plus the documents that share a slot with one (the same
 * key read exactly: seed 001 E) or an open conflict (every side, whatever
 * the filters: a conflict never shows one side only), and so on from those
 * (a slot sibling's conflict brings its other sides). A sibling takes the
 * relevance of the best candidate that brought it.
 */
function withSiblings(index: RetrievalIndex, relevance: ReadonlyMap<string, Relevance>, accept: (id: string) => boolean): Candidate[] {
  const out = new Map<string, Candidate>();
  const queue = [...relevance.keys()].sort(compareIds);
  for (const id of queue) out.set(id, { id, relevance: relevance.get(id)!, context: [] });
  const adopt = (siblingId: string, from: Relevance, reason: RetrievalReason) => {
    if (relevance.has(siblingId)) return;
    const current = out.get(siblingId);
    if (current && current.relevance.value >= from.value) return;
    out.set(siblingId, { id: siblingId, relevance: { ...from, id: siblingId, signals: [] }, context: [reason] });
    queue.push(siblingId);
  };
  // Breadth first; a document is looked at again only when its relevance rose, so this ends.
  for (let next = 0; next < queue.length; next++) {
    const id = queue[next]!;
    const doc = index.documents.get(id)!;
    const from = out.get(id)!.relevance;
    if (doc.slot !== undefined) {
      for (const sibling of index.slots.get(doc.slot) ?? []) {
        if (sibling !== id && accept(sibling)) adopt(sibling, from, { code: 'same_slot', contribution: 0, as: id });
      }
    }
    for (const conflictId of doc.document.conflictIds ?? []) {
      for (const side of index.conflicts.get(conflictId) ?? []) {
        if (side !== id) adopt(side, from, { code: 'conflict_side', contribution: 0, conflictIds: [conflictId] });
      }
    }
  }
  return [...out.values()];
}

/**
 * The best `size` scored documents go on to grouping and diversity (the
 * rest could not reach the top k), each with the documents linked to it by
 * a slot or a conflict, transitively, so that trust precedence and whole
 * conflicts are judged on complete groups.
 */
function rerankPool(index: RetrievalIndex, sorted: readonly Scored[], size: number): Scored[] {
  if (sorted.length <= size) return [...sorted];
  const scoredIds = new Set(sorted.map((s) => s.id));
  const taken = new Set<string>();
  const take = (first: string) => {
    const queue = [first];
    taken.add(first);
    for (let next = 0; next < queue.length; next++) {
      const doc = index.documents.get(queue[next]!)!;
      const linked = [
        ...(doc.slot === undefined ? [] : (index.slots.get(doc.slot) ?? [])),
        ...(doc.document.conflictIds ?? []).flatMap((c) => index.conflicts.get(c) ?? []),
      ];
      for (const id of linked) {
        if (scoredIds.has(id) && !taken.has(id)) {
          taken.add(id);
          queue.push(id);
        }
      }
    }
  };
  for (const s of sorted) {
    if (taken.size >= size) break;
    if (!taken.has(s.id)) take(s.id);
  }
  return sorted.filter((s) => taken.has(s.id));
}

const labelsOf = (index: RetrievalIndex, ids: readonly string[]) =>
  [...new Set(ids.flatMap((id) => index.documents.get(id)!.document.labels ?? []))].sort(compareIds);

function toHit(index: RetrievalIndex, { unit, score, reasons }: Selected, rank: number): RetrievalHit {
  const retrieval = { score, rank, reasons };
  if (unit.type === 'memory') {
    const members = unit.members.map((m) => m.id);
    return { type: 'memory', id: unit.id, members, labels: labelsOf(index, members), retrieval };
  }
  return {
    type: 'conflict',
    conflictIds: unit.conflictIds,
    sides: unit.members.map((side: Scored) => ({
      id: side.id,
      labels: labelsOf(index, [side.id]),
      retrieval: { score: side.score, rank, reasons: side.reasons },
    })),
    retrieval,
  };
}
