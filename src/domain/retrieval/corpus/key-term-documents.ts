// Which documents' keys hold each key term, built with the index: the key
// signal visits the documents of the key terms a question names instead of
// asking every document whether the question names one of its key terms.
// A query term names a key term it equals, one it begins, or one that
// begins it (either at least `minPrefix` long): "notif" names
// "notification", "notifications" names "notif".
import type { IndexedDocument } from './retrieval-index.js';

export interface KeyTermDocuments {
  /** key term -> ids of the documents whose key holds it, in id order (how many: the term's document frequency). */
  readonly byTerm: ReadonlyMap<string, readonly string[]>;
  /** key term -> the keys holding it, each once (documents of one key have one coverage: it is worked out once). */
  readonly keysByTerm: ReadonlyMap<string, readonly string[]>;
  /** key -> ids of the documents with it, in id order. */
  readonly byKey: ReadonlyMap<string, readonly string[]>;
  /** The key terms in code-unit order: those a query term begins are one run of it. */
  readonly sorted: readonly string[];
}

const add = <T>(into: Map<string, T[]>, name: string, value: T) => {
  const values = into.get(name);
  if (values) values.push(value);
  else into.set(name, [value]);
};

/** `documents` in id order. */
export function keyTermDocuments(documents: Iterable<IndexedDocument>): KeyTermDocuments {
  const byTerm = new Map<string, string[]>();
  const keysByTerm = new Map<string, string[]>();
  const byKey = new Map<string, string[]>();
  for (const { document, keyTerms } of documents) {
    const firstOfKey = !byKey.has(document.key);
    add(byKey, document.key, document.id);
    for (const term of keyTerms) {
      add(byTerm, term, document.id);
      // A key's terms are its own: the first document of a key lists it under each.
      if (firstOfKey) add(keysByTerm, term, document.key);
    }
  }
  return { byTerm, keysByTerm, byKey, sorted: [...byTerm.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) };
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
