// The exact-key signal (seed 001 E: profile fields are read exactly).
// A key filter makes every key it matches a candidate (an exact key at
// strength 1: "read this slot"; a wildcard at 0.5: it narrows, the other
// signals order). Without a filter, a key whose distinctive terms the
// query names (notification.preference for "how do they want
// notifications?") matches by the IDF-weighted share of its terms named;
// a key term more than half of the documents share is not distinctive.
import { namedKeyTerms } from '../corpus/key-term-documents.js';
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import type { RetrievalPolicy } from '../ranking/policy.js';
import { isWildcard } from '../request/key-pattern.js';
import { keyWeightsOf } from './key-weights.js';
import type { SignalMatch } from './signal.js';

const MIN_KEY_COVERAGE = 0.5;
const NO_COVERAGE = { strength: 0, terms: [] } as const;

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Without a key filter, the documents a key match can come from: those
 * holding a named key term that is distinctive (a document naming only
 * common key terms has no strength), in id order, as a scan of `accepted`
 * would meet them.
 */
function namedDocuments(index: RetrievalIndex, named: ReadonlySet<string>, accept: (id: string) => boolean): string[] {
  const distinctive = index.size / 2;
  const ids = new Set<string>();
  for (const term of named) {
    const holders = index.keyTermDocuments.byTerm.get(term)!;
    if (holders.length > distinctive) continue;
    for (const id of holders) ids.add(id);
  }
  return [...ids].filter(accept).sort(compareIds);
}

export function keyMatches(
  index: RetrievalIndex,
  queryTerms: readonly string[],
  accepted: readonly string[],
  accept: (id: string) => boolean,
  keyFilter: string | undefined,
  policy: RetrievalPolicy,
): SignalMatch[] {
  const filterStrength = keyFilter === undefined ? 0 : isWildcard(keyFilter) ? 0.5 : 1;
  const distinctive = index.size / 2;
  const coverage = new Map<string, { readonly strength: number; readonly terms: readonly string[] }>();
  const matches: SignalMatch[] = [];
  const named = namedKeyTerms(index.keyTermDocuments, queryTerms, policy.lexical.prefixMinLength);
  const weights = keyWeightsOf(index);
  // With a filter every accepted document matches at the filter's strength at least; without one, only a named key term's.
  const candidates = filterStrength === 0 ? namedDocuments(index, named, accept) : accepted;
  for (const id of candidates) {
    const { keyTerms, document } = index.documents.get(id)!;
    let memo = coverage.get(document.key);
    if (!memo) {
      const all = weights.key(document.key, keyTerms);
      let hit = 0;
      let distinct = false;
      for (const term of keyTerms) {
        if (!named.has(term)) continue;
        hit += weights.term(term);
        if ((index.keyTerms.frequency.get(term) ?? 0) <= distinctive) distinct = true;
      }
      const share = all > 0 ? hit / all : 0;
      // Without strength of its own a key's terms are never shown (most keys a question reaches): listed only with it.
      memo = distinct && share >= MIN_KEY_COVERAGE ? { strength: share, terms: keyTerms.filter((term) => named.has(term)) } : NO_COVERAGE;
      coverage.set(document.key, memo);
    }
    const strength = Math.max(memo.strength, filterStrength);
    if (strength === 0) continue;
    const via = memo.strength >= filterStrength ? 'query_terms' : 'key_filter';
    const terms = via === 'query_terms' ? memo.terms : [];
    matches.push({ id, score: strength, strength, reason: (rank) => ({ code: 'key_match', contribution: 0, rank, via, terms, strength }) });
  }
  return matches;
}
