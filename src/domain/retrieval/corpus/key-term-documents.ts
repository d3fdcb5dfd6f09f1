// Which documents' keys hold each key term, built with the index: the key
// signal visits the documents of the key terms a question names instead of
// asking every document whether the question names one of its key terms.
// A query term names a key term it equals, one it begins, or one that
// begins it (either at least `minPrefix` long): "notif" names
// "notification", "notifications" names "notif".
import type { IndexedDocument } from './retrieval-index.js';

export interface KeyTermDocuments {
  /** key term -> ids of the documents whose key holds it, in id order. */
  readonly byTerm: ReadonlyMap<string, readonly string[]>;
  /** The key terms in code-unit order: those a query term begins are one run of it. */
  readonly sorted: readonly string[];
}

/** `documents` in id order. */
export function keyTermDocuments(documents: Iterable<IndexedDocument>): KeyTermDocuments {
  const byTerm = new Map<string, string[]>();
  for (const { document, keyTerms } of documents) {
    for (const term of keyTerms) {
      const ids = byTerm.get(term);
      if (ids) ids.push(document.id);
      else byTerm.set(term, [document.id]);
    }
  }
  return { byTerm, sorted: [...byTerm.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
}

/** The first position in `sorted` whose term is not before `term`. */
function firstFrom(sorted: readonly string[], term: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (sorted[middle]! < term) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The key terms of the index that the query terms name. */
export function namedKeyTerms(keys: KeyTermDocuments, queryTerms: readonly string[], minPrefix: number): Set<string> {
  const named = new Set<string>();
  for (const q of queryTerms) {
    if (keys.byTerm.has(q)) named.add(q);
    // Key terms the query term begins.
    if (q.length >= minPrefix) {
      for (let i = firstFrom(keys.sorted, q); i < keys.sorted.length && keys.sorted[i]!.startsWith(q); i++) named.add(keys.sorted[i]!);
    }
    // Key terms that begin the query term.
    for (let length = minPrefix; length < q.length; length++) {
      const shorter = q.slice(0, length);
      if (keys.byTerm.has(shorter)) named.add(shorter);
    }
  }
  return named;
}
