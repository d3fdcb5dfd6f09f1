// Reciprocal rank fusion (Cormack et al. 2009): each signal adds
// weight / (k + rank) for the documents it found. Ranks fuse well where
// raw scores (BM25, cosine) do not share a scale. The fused value is given
// as a share of what a document ranked first by every signal that found
// anything would get, and blended with the best signal's strength into the
// relevance, so that a top rank among weak matches stays a weak match.
import type { RetrievalReason } from './reasons.js';
import type { RetrievalPolicy } from './policy.js';
import type { SignalResult } from '../signals/signal.js';

export interface Relevance {
  readonly id: string;
  /** 0..1 */
  readonly value: number;
  readonly fused: number;
  readonly strength: number;
  readonly keyMatched: boolean;
  /** The signals' reasons, in signal order. */
  readonly signals: readonly RetrievalReason[];
}

export function fuse(results: readonly SignalResult[], policy: RetrievalPolicy): Map<string, Relevance> {
  const k = policy.fusionK;
  let ideal = 0;
  for (const r of results) if (r.matches.length > 0) ideal += policy.signalWeights[r.signal] / (k + 1);
  const sums = new Map<string, { rrf: number; strength: number; keyMatched: boolean; signals: RetrievalReason[] }>();
  for (const result of results) {
    const weight = policy.signalWeights[result.signal];
    for (const match of result.matches) {
      let entry = sums.get(match.id);
      if (!entry) {
        entry = { rrf: 0, strength: 0, keyMatched: false, signals: [] };
        sums.set(match.id, entry);
      }
      entry.rrf += weight / (k + match.rank);
      entry.strength = Math.max(entry.strength, match.strength);
      entry.keyMatched ||= result.signal === 'key';
      entry.signals.push(match.reason(match.rank));
    }
  }
  const fused = new Map<string, Relevance>();
  for (const [id, s] of sums) {
    const share = ideal > 0 ? s.rrf / ideal : 0;
    const value = policy.fusedShare * share + (1 - policy.fusedShare) * s.strength;
    fused.set(id, { id, value, fused: share, strength: s.strength, keyMatched: s.keyMatched, signals: s.signals });
  }
  return fused;
}
