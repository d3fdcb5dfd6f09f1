// What a key term, and all the terms of a key together, are worth in one
// index (their IDF over the keys): the same for every question asked of
// it, so worked out once per index and kept with it (the index never
// changes; an update makes a new one), not again for every document a
// question reaches.
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import { idf } from '../corpus/term-statistics.js';

export interface KeyWeights {
  /** The key term's IDF. */
  readonly term: (term: string) => number;
  /** The sum of its terms' IDFs, in the order of `keyTerms` (the key's terms, once each). */
  readonly key: (key: string, keyTerms: readonly string[]) => number;
}

const held = new WeakMap<RetrievalIndex, KeyWeights>();

export function keyWeightsOf(index: RetrievalIndex): KeyWeights {
  let weights = held.get(index);
  if (weights) return weights;
  const terms = new Map<string, number>();
  const keys = new Map<string, number>();
  const term = (t: string) => {
    let w = terms.get(t);
    if (w === undefined) terms.set(t, (w = idf(index.keyTerms, t)));
    return w;
  };
  const key = (k: string, keyTerms: readonly string[]) => {
    let all = keys.get(k);
    if (all === undefined) {
      all = 0;
      for (const t of keyTerms) all += term(t);
      keys.set(k, all);
    }
    return all;
  };
  weights = { term, key };
  held.set(index, weights);
  return weights;
}
