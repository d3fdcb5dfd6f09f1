// What recall derives from an item's text, remembered per item identity (a
// memory version, a claim of an artifact): its token count (the tokenizer is
// slow next to a read) and its labels (the injection scan). A version's text
// never changes. Only counts and label codes are kept, never text.
import type { CountTokens } from '../../domain/consolidation/cold-tier.js';
import { injectionSpans } from '../../domain/policy/injection/detect-injection.js';

const CAPACITY = 100_000;

function boundedMemo<T>(): { get(key: string, make: () => T): T; clear(): void } {
  const known = new Map<string, T>();
  return {
    get(key, make) {
      const hit = known.get(key);
      if (hit !== undefined) return hit;
      const made = make();
      known.set(key, made);
      if (known.size > CAPACITY) known.delete(known.keys().next().value!);
      return made;
    },
    clear: () => known.clear(),
  };
}

const counts = boundedMemo<number>();
const labels = boundedMemo<readonly string[]>();

export function cachedTokens(count: CountTokens, identity: string, text: string): number {
  return counts.get(`${identity}\u0000${text.length}`, () => count(text));
}

/**
 * The injection markers (seed 003: a memory that tries to change the agent's
 * instructions) found in an item's texts, as sorted kind codes such as
 * `injection:override_instructions`: the item is still served, as context,
 * labelled so the agent can tell.
 */
export function cachedLabels(identity: string, texts: readonly string[]): readonly string[] {
  return labels.get(`${identity}\u0000${texts.map((t) => t.length).join(',')}`, () =>
    [...new Set(texts.flatMap((t) => injectionSpans(t).map((s) => s.kind)))].sort(),
  );
}

/** Drops every remembered count and label (benchmarks measure recall with and without them). */
export function forgetTokenCounts(): void {
  counts.clear();
  labels.clear();
}
