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

interface Coverage {
  readonly strength: number;
  readonly terms: readonly string[];
}

/**
 * Without a key filter, the keys a key match can come from: those holding
 * a named key term that is distinctive (a key naming only common key terms
 * has no strength).
 */
function namedKeys(index: RetrievalIndex, named: ReadonlySet<string>): Set<string> {
  const distinctive = index.size / 2;
  const keys = new Set<string>();
  for (const term of named) {
    if (index.keyTermDocuments.byTerm.get(term)!.length > distinctive) continue;
    for (const key of index.keyTermDocuments.keysByTerm.get(term)!) keys.add(key);
  }
  return keys;
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
  const named = namedKeyTerms(index.keyTermDocuments, queryTerms, policy.lexical.prefixMinLength);
  const weights = keyWeightsOf(index);
  const measure = (key: string, documentId: string): Coverage => {
    const { terms, weights: termWeights, distinctive, all } = weights(key, documentId);
    let hit = 0;
    let distinct = false;
    for (let i = 0; i < terms.length; i++) {
      if (!named.has(terms[i]!)) continue;
      hit += termWeights[i]!;
      if (distinctive[i]) distinct = true;
    }
    const share = all > 0 ? hit / all : 0;
    // Without strength of its own a key's terms are never shown (most keys a question reaches): listed only with it.
    return distinct && share >= MIN_KEY_COVERAGE ? { strength: share, terms: terms.filter((term) => named.has(term)) } : NO_COVERAGE;
  };

  // With a filter every accepted document matches at the filter's strength at least; without one, only the documents of a key with strength of its own.
  const candidates: Array<readonly [string, Coverage]> = [];
  if (filterStrength === 0) {
    // Each key once (namedKeys is a set).
    for (const key of namedKeys(index, named)) {
      const ids = index.keyTermDocuments.byKey.get(key)!;
      const memo = measure(key, ids[0]!);
      if (memo.strength > 0) for (const id of ids) if (accept(id)) candidates.push([id, memo]);
    }
    // In id order, as a scan of the accepted documents would meet them.
    candidates.sort((a, b) => compareIds(a[0], b[0]));
  } else {
    // Documents of one key share its coverage: measured once.
    const coverage = new Map<string, Coverage>();
    for (const id of accepted) {
      const { key } = index.documents.get(id)!.document;
      let memo = coverage.get(key);
      if (memo === undefined) coverage.set(key, (memo = measure(key, id)));
      candidates.push([id, memo]);
    }
  }
  const matches: SignalMatch[] = [];
  for (const [id, memo] of candidates) {
    const strength = Math.max(memo.strength, filterStrength);
    if (strength === 0) continue;
    const via = memo.strength >= filterStrength ? 'query_terms' : 'key_filter';
    const terms = via === 'query_terms' ? memo.terms : [];
    matches.push({ id, score: strength, strength, reason: (rank) => ({ code: 'key_match', contribution: 0, rank, via, terms, strength }) });
  }
  return matches;
}
