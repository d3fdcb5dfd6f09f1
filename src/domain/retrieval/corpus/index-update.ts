// A subject's index brought up to date after a write (issue 16 item 2)
// instead of built again: the documents that left or changed come out of
// BM25 and the term statistics, the new ones go in, the rest is kept (a
// document is unchanged when it is the very object indexed before: the
// corpus remembers each memory's document). The answer is the index a build
// of the same documents makes (same scores, same order), at the cost of the
// changed documents only. The previous index's BM25 part is moved into the
// new one: the caller must not use the previous index again. Undefined when
// more than `maxChanged` documents differ (a build is cheaper then).
import type { RetrievalDocument } from './document.js';
import { commonDimensions, indexDocument, recordTerms, type IndexedDocument, type RetrievalIndex } from './retrieval-index.js';
import { keyTermDocuments } from './key-term-documents.js';
import type { TermStatistics } from './term-statistics.js';

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function counted(stats: TermStatistics, documents: number, out: readonly ReadonlySet<string>[], into: readonly ReadonlySet<string>[]) {
  const frequency = new Map(stats.frequency);
  for (const terms of out)
    for (const term of terms) {
      const n = frequency.get(term)! - 1;
      if (n > 0) frequency.set(term, n);
      else frequency.delete(term);
    }
  for (const terms of into) for (const term of terms) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  return { documents, frequency };
}

function grouped(documents: ReadonlyMap<string, IndexedDocument>) {
  const slots = new Map<string, string[]>();
  const conflicts = new Map<string, string[]>();
  const add = (into: Map<string, string[]>, name: string, id: string) => (into.get(name) ?? into.set(name, []).get(name)!).push(id);
  for (const [id, d] of documents) {
    if (d.slot !== undefined) add(slots, d.slot, id);
    for (const conflictId of new Set(d.document.conflictIds ?? [])) add(conflicts, conflictId, id);
  }
  return { slots, conflicts };
}

export function updateRetrievalIndex(
  previous: RetrievalIndex,
  documents: readonly RetrievalDocument[],
  maxChanged: number,
): RetrievalIndex | undefined {
  const next = new Map(documents.map((d) => [d.id, d]));
  if (next.size !== documents.length) return undefined; // a duplicate id: the build refuses it, naming it
  const leaving = previous.ids.filter((id) => next.get(id) !== previous.documents.get(id)!.document);
  const coming = documents.filter((d) => previous.documents.get(d.id)?.document !== d);
  if (leaving.length + coming.length > maxChanged) return undefined;
  if (leaving.length === 0 && coming.length === 0) return previous;

  const added = coming.map(indexDocument);
  const removed = leaving.map((id) => indexDocument(previous.documents.get(id)!.document));
  const kept = new Map(previous.documents);
  for (const id of leaving) kept.delete(id);
  for (const { indexed } of added) kept.set(indexed.document.id, indexed);
  const ids = [...kept.keys()].sort(compareIds);
  const indexed = new Map(ids.map((id) => [id, kept.get(id)!]));
  const dimensions = commonDimensions(indexed.values());

  const lexical = previous.lexical;
  for (const { record } of removed) lexical.remove(record);
  for (const { record } of added) lexical.add(record);
  const keySets = (xs: ReadonlyArray<{ indexed: IndexedDocument }>) => xs.map((x) => new Set(x.indexed.keyTerms));
  return {
    size: indexed.size,
    documents: indexed,
    ids,
    lexical,
    terms: counted(
      previous.terms,
      indexed.size,
      removed.map((r) => recordTerms(r.record)),
      added.map((a) => recordTerms(a.record)),
    ),
    keyTerms: counted(previous.keyTerms, indexed.size, keySets(removed), keySets(added)),
    keyTermDocuments: keyTermDocuments(indexed.values()),
    ...grouped(indexed),
    dimensions,
  };
}
