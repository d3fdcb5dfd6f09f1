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

export function searchLexical(index: MiniSearch<LexicalRecord>, queryTerms: readonly string[], options: LexicalOptions): LexicalMatch[] {
  if (queryTerms.length === 0) return [];
  const accept = options.accept;
  const results = index.search(queryTerms.join(' '), {
    tokenize: bySpace,
    processTerm: (term) => term,
    boost: { ...options.boost },
    prefix: options.prefix,
    weights: { prefix: options.prefixWeight, fuzzy: 0 },
    combineWith: 'OR',
    boostTerm: (term) => options.termWeight(term),
    ...(accept ? { filter: (result: { id: unknown }) => accept(result.id as string) } : {}),
  });
  results.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return results.slice(0, options.limit).map((result) => {
    const terms = result.queryTerms.map((term) => ({ term, exact: result.terms.includes(term) }));
    let fields = 0;
    for (const matched in result.match) for (const field of result.match[matched]!) fields |= FIELD_BIT[field as LexicalField];
    return { id: result.id as string, score: result.score, terms, fields: FIELDS_OF[fields]! };
  });
}

const FIELD_BIT = Object.fromEntries(LEXICAL_FIELDS.map((field, i) => [field, 1 << i])) as Record<LexicalField, number>;
/** Each set of fields (by its bits) in LEXICAL_FIELDS order, made once: every match shares them. */
const FIELDS_OF: ReadonlyArray<readonly LexicalField[]> = Array.from({ length: 1 << LEXICAL_FIELDS.length }, (_, bits) =>
  LEXICAL_FIELDS.filter((field) => (bits & FIELD_BIT[field]) !== 0),
);
