// The lexical signal: BM25 (minisearch) over content, key, value and
// anticipated queries. A query term also matches index terms it begins
// (prefix: "deliv" finds "deliveri") and, when the index has one, a
// shorter index term that begins it (truncation: "washer" finds "wash"):
// Porter's stems do not always meet, and either way counts less than an
// exact match. Strength is the IDF-weighted share of the query's terms
// matched (partial matches at their weight, CJK unigrams at theirs), so a
// document matching one common word of a long question is a weak match
// whatever its rank.
import { searchLexical } from '../corpus/lexical-index.js';
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import { idf } from '../corpus/term-statistics.js';
import type { RetrievalPolicy } from '../ranking/policy.js';
import { CJK_CHARACTER, isCjkUnigram } from '../text/cjk.js';
import type { SignalMatch } from './signal.js';

/** Each form searched, with the query term it stands for and its weight. */
interface Form {
  readonly term: string;
  readonly weight: number;
}

function expand(index: RetrievalIndex, queryTerms: readonly string[], policy: RetrievalPolicy): Map<string, Form> {
  const { prefixMinLength, truncationWeight } = policy.lexical;
  const forms = new Map<string, Form>(queryTerms.map((term) => [term, { term, weight: 1 }]));
  for (const term of queryTerms) {
    if (CJK_CHARACTER.test(term) || /\d/.test(term)) continue;
    for (let length = term.length - 1; length >= Math.max(prefixMinLength, term.length - 3); length--) {
      const shorter = term.slice(0, length);
      if (forms.has(shorter) || !index.terms.frequency.has(shorter)) continue;
      forms.set(shorter, { term, weight: truncationWeight });
      break;
    }
  }
  return forms;
}

export function lexicalMatches(
  index: RetrievalIndex,
  queryTerms: readonly string[],
  accept: ((id: string) => boolean) | undefined,
  limit: number,
  policy: RetrievalPolicy,
): SignalMatch[] {
  const { lexical } = policy;
  const termWeight = (term: string) => (isCjkUnigram(term) ? lexical.unigramWeight : 1);
  const worth = new Map(queryTerms.map((term) => [term, termWeight(term) * idf(index.terms, term)]));
  let total = 0;
  for (const w of worth.values()) total += w;
  const forms = expand(index, queryTerms, policy);
  const originals = new Set(queryTerms);
  const matches = searchLexical(index.lexical, [...forms.keys()], {
    boost: lexical.boost,
    prefix: (term) => originals.has(term) && term.length >= lexical.prefixMinLength && !CJK_CHARACTER.test(term),
    prefixWeight: lexical.prefixWeight,
    termWeight: (term) => termWeight(term) * (forms.get(term)?.weight ?? 1),
    ...(accept ? { accept } : {}),
    limit,
  });
  return matches.map((match) => {
    // Each query term matched at its best form's weight, in the order first met (the sum adds in that order).
    const named: string[] = [];
    const best: number[] = [];
    for (const { term: searched, exact } of match.terms) {
      const form = forms.get(searched);
      const term = form?.term ?? searched;
      const weight = (form?.weight ?? 1) * (exact ? 1 : lexical.prefixWeight);
      const at = named.indexOf(term);
      if (at < 0) {
        named.push(term);
        best.push(Math.max(0, weight));
      } else best[at] = Math.max(best[at]!, weight);
    }
    let matched = 0;
    for (let i = 0; i < named.length; i++) matched += (worth.get(named[i]!) ?? 0) * best[i]!;
    const strength = total > 0 ? Math.min(1, matched / total) : 0;
    const terms = [...named].sort();
    const partial = terms.filter((t) => best[named.indexOf(t)]! < 1);
    return {
      id: match.id,
      score: match.score,
      strength,
      reason: (rank) => ({ code: 'lexical_match', contribution: 0, rank, terms, partial, fields: match.fields, strength }),
    };
  });
}
