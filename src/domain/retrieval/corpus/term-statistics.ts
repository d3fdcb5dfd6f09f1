// Document frequencies and IDF (BM25's form, never negative), over the
// whole index: what a query term is worth, for explaining a match's
// strength independently of its rank.
export interface TermStatistics {
  readonly documents: number;
  readonly frequency: ReadonlyMap<string, number>;
}

export function termStatistics(termSets: Iterable<ReadonlySet<string>>): TermStatistics {
  const frequency = new Map<string, number>();
  let documents = 0;
  for (const terms of termSets) {
    documents += 1;
    for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  }
  return { documents, frequency };
}

/** A term no document has counts as the rarest (frequency 1): it is worth asking for, not infinitely. */
export function idf(stats: TermStatistics, term: string): number {
  const df = Math.max(1, stats.frequency.get(term) ?? 0);
  return Math.log(1 + (stats.documents - df + 0.5) / (df + 0.5));
}
