// searchLexical reads minisearch's index directly (src/domain/retrieval/
// corpus/lexical-index.ts) instead of calling its generic search(): for any
// corpus, query terms, weights, prefix rule, filter and limit, and after
// documents are removed and added (an index update), it must give exactly
// what search() gives — the same documents, scores to the last bit, terms
// and fields — or a minisearch upgrade changed what it reads.
import fc from 'fast-check';
import type MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import {
  buildLexicalIndex,
  LEXICAL_FIELDS,
  searchLexical,
  type LexicalField,
  type LexicalMatch,
  type LexicalOptions,
  type LexicalRecord,
} from '../../../src/domain/retrieval/corpus/lexical-index.js';

/** What searchLexical did before: minisearch's own search, with the same options. */
function throughSearch(index: MiniSearch<LexicalRecord>, queryTerms: readonly string[], options: LexicalOptions): LexicalMatch[] {
  const bySpace = (text: string) => (text.length === 0 ? [] : text.split(' '));
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
  return results.slice(0, options.limit).map((result) => ({
    id: result.id as string,
    score: result.score,
    terms: result.queryTerms.map((term) => ({ term, exact: result.terms.includes(term) })),
    fields: LEXICAL_FIELDS.filter((field) => Object.values(result.match).some((fields) => fields.includes(field))),
  }));
}

// Words that begin one another, so prefixes and truncations reach several.
const WORDS = [
  'deliv',
  'deliveri',
  'delivery',
  'order',
  'orders',
  'ord',
  'ship',
  'shipped',
  'shipping',
  'sms',
  'email',
  'e',
  'wash',
  'washer',
];
const word = fc.constantFrom(...WORDS);
const field = fc.array(word, { maxLength: 6 });
const record = fc.record({ content: field, key: field, value: field, anticipated: field });
const corpus = fc.array(record, { minLength: 1, maxLength: 40 });

const records = (fields: ReadonlyArray<Record<LexicalField, string[]>>, prefix: string): LexicalRecord[] =>
  fields.map((f, i) => ({ id: `${prefix}-${String(i).padStart(3, '0')}`, fields: f }));

const options = fc.record({
  boost: fc.record({
    content: fc.constantFrom(0, 0.5, 1, 2),
    key: fc.constantFrom(1, 1.5, 3),
    value: fc.constantFrom(1, 2),
    anticipated: fc.constantFrom(0.3, 1),
  }),
  prefixed: fc.subarray(WORDS),
  prefixWeight: fc.constantFrom(0.3, 0.5, 0.8),
  weighted: fc.dictionary(word, fc.constantFrom(0.25, 0.5, 2)),
  acceptEvery: fc.constantFrom(0, 2, 3),
  limit: fc.integer({ min: 1, max: 50 }),
});

function lexicalOptions(o: {
  boost: Record<LexicalField, number>;
  prefixed: string[];
  prefixWeight: number;
  weighted: Record<string, number>;
  acceptEvery: number;
  limit: number;
}): LexicalOptions {
  const prefixed = new Set(o.prefixed);
  return {
    boost: o.boost,
    prefix: (term) => prefixed.has(term),
    prefixWeight: o.prefixWeight,
    termWeight: (term) => o.weighted[term] ?? 1,
    ...(o.acceptEvery > 0 ? { accept: (id: string) => Number(id.slice(-3)) % o.acceptEvery !== 0 } : {}),
    limit: o.limit,
  };
}

describe('lexical search read from the index', () => {
  it('gives what minisearch search() gives, to the last bit', () => {
    fc.assert(
      fc.property(corpus, fc.uniqueArray(word, { minLength: 1, maxLength: 5 }), options, (fields, terms, o) => {
        const index = buildLexicalIndex(records(fields, 'd'));
        const opts = lexicalOptions(o);
        expect(searchLexical(index, terms, opts)).toEqual(throughSearch(index, terms, opts));
      }),
      { numRuns: 300 },
    );
  });

  it('gives what search() gives after documents are removed and others added (an index update)', () => {
    fc.assert(
      fc.property(
        corpus,
        corpus,
        fc.integer({ min: 1, max: 40 }),
        fc.uniqueArray(word, { minLength: 1, maxLength: 5 }),
        options,
        (first, more, leaving, terms, o) => {
          const initial = records(first, 'a');
          const index = buildLexicalIndex(initial);
          const opts = lexicalOptions(o);
          // Asked before the update too: what a search keeps of the index must follow it.
          expect(searchLexical(index, terms, opts)).toEqual(throughSearch(index, terms, opts));
          for (const r of initial.slice(0, leaving)) index.remove(r);
          index.addAll(records(more, 'b'));
          expect(searchLexical(index, terms, opts)).toEqual(throughSearch(index, terms, opts));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('finds nothing for no terms, and nothing in an emptied index', () => {
    const all = records([{ content: ['order'], key: [], value: ['shipped'], anticipated: [] }], 'x');
    const index = buildLexicalIndex(all);
    const opts = lexicalOptions({
      boost: { content: 1, key: 1, value: 1, anticipated: 1 },
      prefixed: ['ord'],
      prefixWeight: 0.5,
      weighted: {},
      acceptEvery: 0,
      limit: 5,
    });
    expect(searchLexical(index, [], opts)).toEqual([]);
    expect(searchLexical(index, ['ord'], opts).map((m) => m.id)).toEqual(['x-000']);
    index.remove(all[0]!);
    expect(searchLexical(index, ['ord', 'order'], opts)).toEqual([]);
  });
});
