// Token counts of recall items, remembered per item identity (a memory
// version, a claim of an artifact): the tokenizer is slow next to a read,
// and a version's text never changes. Only counts are kept, never text.
import type { CountTokens } from '../../domain/consolidation/cold-tier.js';

const CAPACITY = 100_000;
const counts = new Map<string, number>();

export function cachedTokens(count: CountTokens, identity: string, text: string): number {
  const key = `${identity}\u0000${text.length}`;
  const known = counts.get(key);
  if (known !== undefined) return known;
  const n = count(text);
  counts.set(key, n);
  if (counts.size > CAPACITY) counts.delete(counts.keys().next().value!);
  return n;
}

/** Drops every remembered count (benchmarks measure recall with and without them). */
export function forgetTokenCounts(): void {
  counts.clear();
}
