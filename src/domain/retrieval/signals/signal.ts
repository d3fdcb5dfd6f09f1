// A candidate signal's answer: documents in its order, each with a
// strength from 0 to 1 (how well it matched on its own terms, comparable
// across queries) and the reason it gives. Ties share a rank (1, 2, 2, 4),
// so fusion never favours one of two equal documents by its id.
import type { RetrievalReason } from '../ranking/reasons.js';
import type { SignalName } from '../ranking/policy.js';

export interface SignalMatch {
  readonly id: string;
  /** The signal's own score: orders the list. */
  readonly score: number;
  readonly strength: number;
  readonly reason: (rank: number) => RetrievalReason;
}

export interface RankedMatch extends SignalMatch {
  readonly rank: number;
}

export interface SignalResult {
  readonly signal: SignalName;
  readonly matches: readonly RankedMatch[];
}

/** Best first (ties by id, for a stable order), cut to `limit`, with competition ranks. */
export function rankSignal(signal: SignalName, matches: readonly SignalMatch[], limit: number): SignalResult {
  const sorted = [...matches].sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).slice(0, limit);
  const ranked: RankedMatch[] = [];
  sorted.forEach((match, i) => {
    const previous = ranked[i - 1];
    ranked.push({ ...match, rank: previous && previous.score === match.score ? previous.rank : i + 1 });
  });
  return { signal, matches: ranked };
}
