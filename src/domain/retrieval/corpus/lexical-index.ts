// BM25 over content, key, rendered value and anticipated queries, with
// minisearch (BM25+, a radix tree for prefix matching). Fields are handed
// over already tokenized (terms joined by spaces: no term has one), so the
// same tokenizer serves memories and queries and runs once per text.
import MiniSearch from 'minisearch';

export const LEXICAL_FIELDS = ['content', 'key', 'value', 'anticipated'] as const;
export type LexicalField = (typeof LEXICAL_FIELDS)[number];

export interface LexicalRecord {
  readonly id: string;
  readonly fields: Readonly<Record<LexicalField, readonly string[]>>;
}

const bySpace = (text: string) => (text.length === 0 ? [] : text.split(' '));

export function buildLexicalIndex(records: readonly LexicalRecord[]): MiniSearch<LexicalRecord> {
  const index = new MiniSearch<LexicalRecord>({
    fields: [...LEXICAL_FIELDS],
    extractField: (record, field) => (field === 'id' ? record.id : record.fields[field as LexicalField].join(' ')),
    tokenize: bySpace,
    processTerm: (term) => term,
  });
  index.addAll(records);
  return index;
}

export interface LexicalOptions {
  readonly boost: Readonly<Record<LexicalField, number>>;
  readonly prefix: (term: string) => boolean;
  readonly prefixWeight: number;
  readonly termWeight: (term: string) => number;
  /** Absent: every document may match. */
  readonly accept?: (id: string) => boolean;
  /** Only the best so many are described (ties by id). */
  readonly limit: number;
}

export interface LexicalMatch {
  readonly id: string;
  readonly score: number;
  /** The query terms that matched, and whether exactly (not only as a prefix). */
  readonly terms: ReadonlyArray<{ readonly term: string; readonly exact: boolean }>;
  readonly fields: readonly LexicalField[];
}

/**
 * What minisearch (7.2.0, pinned) keeps of its index, read directly: its
 * search() is generic (any operator, fuzzy, stored fields) and builds an
 * object per document, term and field matched; ranking a 1,000-memory
 * subject's query spent most of its lexical time there. The scores are the
 * ones search() gives (same BM25+, same weights, same order of additions),
 * held to it by test/domain/retrieval/lexical-search.property.test.ts.
 */
interface IndexData {
  readonly _index: {
    get(term: string): ReadonlyMap<number, ReadonlyMap<number, number>> | undefined;
    atPrefix(prefix: string): Iterable<[string, ReadonlyMap<number, ReadonlyMap<number, number>>]>;
  };
  readonly _fieldIds: Readonly<Record<string, number>>;
  readonly _fieldLength: ReadonlyMap<number, readonly number[]>;
  readonly _avgFieldLength: readonly number[];
  readonly _documentCount: number;
  readonly _documentIds: ReadonlyMap<number, string>;
  readonly _nextId: number;
}

/** minisearch's BM25+ parameters (its defaults; buildLexicalIndex sets none). */
const BM25 = { k: 1.2, b: 0.7, d: 0.5 } as const;
/** minisearch's prefix weighting: a longer expansion counts less (its executeQuerySpec). */
const PREFIX_DISTANCE_WEIGHT = 0.3;

/** The query terms: OR of each term (exact, and as a prefix when asked), scored by BM25+ per field. */
export function searchLexical(index: MiniSearch<LexicalRecord>, queryTerms: readonly string[], options: LexicalOptions): LexicalMatch[] {
  if (queryTerms.length === 0) return [];
  const data = index as unknown as IndexData;
  const size = data._nextId;
  const fields = LEXICAL_FIELDS.map((field) => ({ id: data._fieldIds[field]!, boost: options.boost[field] || 1, bit: FIELD_BIT[field] }));
  const lengths = flatFieldLengths(data);
  const total = new Float64Array(size);
  const matchedFields = new Uint8Array(size);
  /** Per query term and document: 1 matched, 2 matched exactly (the document holds the term itself). */
  const matched = queryTerms.map(() => new Uint8Array(size));
  const termScore = new Float64Array(size);
  const touched: number[] = [];
  /** Documents any term matched, in the order first matched. */
  const documents: number[] = [];
  const listed = new Uint8Array(size);
  // One term's postings, as minisearch's termResults adds them: field by field, document by document.
  const add = (postings: ReadonlyMap<number, ReadonlyMap<number, number>> | undefined, weight: number, seen: Uint8Array, mark: number) => {
    if (postings === undefined) return;
    for (const field of fields) {
      const frequencies = postings.get(field.id);
      if (frequencies === undefined) continue;
      const average = data._avgFieldLength[field.id]!;
      const idf = Math.log(1 + (data._documentCount - frequencies.size + 0.5) / (frequencies.size + 0.5));
      for (const [doc, frequency] of frequencies) {
        const length = lengths[doc * FIELD_COUNT + field.id]!;
        const raw = idf * (BM25.d + (frequency * (BM25.k + 1)) / (frequency + BM25.k * (1 - BM25.b + (BM25.b * length) / average)));
        if (seen[doc] === 0) touched.push(doc);
        termScore[doc] = termScore[doc]! + weight * field.boost * raw;
        seen[doc] = Math.max(seen[doc]!, mark);
        matchedFields[doc] = matchedFields[doc]! | field.bit;
      }
    }
  };
  queryTerms.forEach((term, t) => {
    const boost = options.termWeight(term);
    const seen = matched[t]!;
    add(data._index.get(term), boost, seen, 2);
    if (options.prefix(term))
      for (const [longer, postings] of data._index.atPrefix(term)) {
        const distance = longer.length - term.length;
        if (distance === 0) continue;
        add(postings, ((options.prefixWeight * longer.length) / (longer.length + PREFIX_DISTANCE_WEIGHT * distance)) * boost, seen, 1);
      }
    // OR: each term's sum added to the document's, term after term.
    for (const doc of touched) {
      if (listed[doc] === 0) {
        listed[doc] = 1;
        documents.push(doc);
      }
      total[doc] = total[doc]! + termScore[doc]!;
      termScore[doc] = 0;
    }
    touched.length = 0;
  });
  return rank(data, documents, queryTerms, matched, total, matchedFields, options);
}

const FIELD_COUNT = LEXICAL_FIELDS.length;

/** Each index's field lengths, flat (shortId x FIELD_COUNT), by its _fieldLength map (a new map is a new index). */
const flatLengths = new WeakMap<object, { readonly lengths: Float64Array; readonly upTo: number }>();

/**
 * The field lengths in one flat array: the scoring loop read a Map entry per
 * posting. A document's lengths never change once added and a shortId is
 * never given again (an update removes and adds: a new shortId), so the
 * array is only extended, after an index grew. Counts only, no text; it
 * goes with its index (an erasure drops the index).
 */
function flatFieldLengths(data: IndexData): Float64Array {
  const kept = flatLengths.get(data._fieldLength);
  if (kept && kept.upTo === data._nextId) return kept.lengths;
  const lengths = new Float64Array(data._nextId * FIELD_COUNT);
  if (kept) lengths.set(kept.lengths);
  for (let doc = kept?.upTo ?? 0; doc < data._nextId; doc++) {
    const own = data._fieldLength.get(doc);
    if (own) for (let field = 0; field < FIELD_COUNT; field++) lengths[doc * FIELD_COUNT + field] = own[field] ?? 0;
  }
  flatLengths.set(data._fieldLength, { lengths, upTo: data._nextId });
  return lengths;
}

function rank(
  data: IndexData,
  documents: readonly number[],
  queryTerms: readonly string[],
  matched: readonly Uint8Array[],
  total: Float64Array,
  matchedFields: Uint8Array,
  options: LexicalOptions,
): LexicalMatch[] {
  const accept = options.accept;
  const found: Array<{ doc: number; id: string; score: number }> = [];
  for (const doc of documents) {
    const id = data._documentIds.get(doc)!;
    if (accept && !accept(id)) continue;
    // minisearch multiplies by the number of query terms the document matched (at least one: it is listed).
    let quality = 0;
    for (const seen of matched) if (seen[doc] !== 0) quality += 1;
    found.push({ doc, id, score: total[doc]! * quality });
  }
  found.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return found.slice(0, options.limit).map(({ doc, id, score }) => {
    const terms: Array<{ term: string; exact: boolean }> = [];
    queryTerms.forEach((term, t) => {
      const seen = matched[t]![doc]!;
      if (seen !== 0) terms.push({ term, exact: seen === 2 });
    });
    return { id, score, terms, fields: FIELDS_OF[matchedFields[doc]!]! };
  });
}

const FIELD_BIT = Object.fromEntries(LEXICAL_FIELDS.map((field, i) => [field, 1 << i])) as Record<LexicalField, number>;
/** Each set of fields (by its bits) in LEXICAL_FIELDS order, made once: every match shares them. */
const FIELDS_OF: ReadonlyArray<readonly LexicalField[]> = Array.from({ length: 1 << LEXICAL_FIELDS.length }, (_, bits) =>
  LEXICAL_FIELDS.filter((field) => (bits & FIELD_BIT[field]) !== 0),
);
