// The lexical signal: BM25 (minisearch) over content, key, value and
// anticipated queries. Its strength is the IDF-weighted share of the
// query's terms the document matched (a prefix match counts at the prefix
// weight, a CJK unigram at its weight), so a document matching one common
// word of a long question is a weak match whatever its rank.
import { searchLexical } from '../corpus/lexical-index.js';
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import { idf } from '../corpus/term-statistics.js';
import type { RetrievalPolicy } from '../ranking/policy.js';
import { CJK_CHARACTER, isCjkUnigram } from '../text/cjk.js';
import type { SignalMatch } from './signal.js';

export function lexicalMatches(
  index: RetrievalIndex,
  queryTerms: readonly string[],
  accept: (id: string) => boolean,
  policy: RetrievalPolicy,
): SignalMatch[] {
  const { lexical } = policy;
  const termWeight = (term: string) => (isCjkUnigram(term) ? lexical.unigramWeight : 1);
  const worth = new Map(queryTerms.map((term) => [term, termWeight(term) * idf(index.terms, term)]));
  let total = 0;
  for (const w of worth.values()) total += w;
  const matches = searchLexical(index.lexical, queryTerms, {
    boost: lexical.boost,
    prefix: (term) => term.length >= lexical.prefixMinLength && !CJK_CHARACTER.test(term),
    prefixWeight: lexical.prefixWeight,
    termWeight,
    accept,
  });
  return matches.map((match) => {
    let matched = 0;
    for (const [term, { exact }] of match.terms) matched += (worth.get(term) ?? 0) * (exact ? 1 : lexical.prefixWeight);
    const strength = total > 0 ? Math.min(1, matched / total) : 0;
    const terms = [...match.terms.keys()].sort();
    const prefixOnly = terms.filter((t) => !match.terms.get(t)!.exact);
    return {
      id: match.id,
      score: match.score,
      strength,
      reason: (rank) => ({ code: 'lexical_match', contribution: 0, rank, terms, prefixOnly, fields: match.fields, strength }),
    };
  });
}
