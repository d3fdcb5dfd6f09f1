// The p-th percentile (0..100) of ascending figures: the nearest-rank value at or above p% of them.
export const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
