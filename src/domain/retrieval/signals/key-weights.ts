// What a key term, and each key's terms, are worth in one index (their IDF
// over the keys, and whether a term is distinctive: held by at most half of
// the documents): the same for every question asked of it, so worked out
// once per index and kept with it (the index never changes; an update makes
// a new one), not again for every key a question reaches.
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import { idf } from '../corpus/term-statistics.js';

/** A key's terms (once each) with their worth in the index, in the same order. */
export interface WeighedKey {
  readonly terms: readonly string[];
  /** Each term's IDF. */
  readonly weights: readonly number[];
  /** Whether each term is distinctive. */
  readonly distinctive: readonly boolean[];
  /** The sum of `weights`, in their order. */
  readonly all: number;
}

/** The key of a document of the index (`documentId`: one with that key, whose key terms are the key's). */
export type KeyWeights = (key: string, documentId: string) => WeighedKey;

const held = new WeakMap<RetrievalIndex, KeyWeights>();

export function keyWeightsOf(index: RetrievalIndex): KeyWeights {
  let weights = held.get(index);
  if (weights) return weights;
  const distinctiveAt = index.size / 2;
  const terms = new Map<string, number>();
  const keys = new Map<string, WeighedKey>();
  const term = (t: string) => {
    let w = terms.get(t);
    if (w === undefined) terms.set(t, (w = idf(index.keyTerms, t)));
    return w;
  };
  weights = (key, documentId) => {
    let weighed = keys.get(key);
    if (weighed === undefined) {
      const keyTerms = index.documents.get(documentId)!.keyTerms;
      const termWeights = keyTerms.map(term);
      let all = 0;
      for (const w of termWeights) all += w;
      const distinctive = keyTerms.map((t) => (index.keyTerms.frequency.get(t) ?? 0) <= distinctiveAt);
      keys.set(key, (weighed = { terms: keyTerms, weights: termWeights, distinctive, all }));
    }
    return weighed;
  };
  held.set(index, weights);
  return weights;
}
