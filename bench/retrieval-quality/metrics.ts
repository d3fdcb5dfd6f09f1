// Recall@k: for one question, the share of its gold turns found among the
// first k hits (a hit may stand for several turns: near-duplicates
// collapsed into one, conflict sides); over a set of questions, the mean.
export type Ranking = ReadonlyArray<readonly string[]>;

export function recallAt(k: number, ranking: Ranking, gold: readonly string[]): number {
  if (gold.length === 0) throw new Error('a question needs at least one gold turn');
  const found = new Set(ranking.slice(0, k).flat());
  return gold.filter((id) => found.has(id)).length / gold.length;
}

export interface Scored {
  readonly ranking: Ranking;
  readonly gold: readonly string[];
}

export function meanRecallAt(k: number, questions: readonly Scored[]): number {
  if (questions.length === 0) return Number.NaN;
  return questions.reduce((sum, q) => sum + recallAt(k, q.ranking, q.gold), 0) / questions.length;
}

/** Mean reciprocal rank of the first gold turn (0 when none is in the ranking). */
export function meanReciprocalRank(questions: readonly Scored[]): number {
  if (questions.length === 0) return Number.NaN;
  const rr = (q: Scored) => {
    const at = q.ranking.findIndex((ids) => ids.some((id) => q.gold.includes(id)));
    return at < 0 ? 0 : 1 / (at + 1);
  };
  return questions.reduce((sum, q) => sum + rr(q), 0) / questions.length;
}
