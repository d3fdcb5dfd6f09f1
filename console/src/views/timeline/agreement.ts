// Does what the system believed (as-of, from memory_versions) agree with
// what replay computes from the event stream alone? The two answers have one
// shape (src/queries/belief.ts) and must be equal belief for belief; `from`
// says where each came from and is not compared.
import type { Belief } from '../../api/types.js';

export interface Agreement {
  readonly agree: boolean;
  /** memoryId vN present in one answer only. */
  readonly onlyAsOf: readonly string[];
  readonly onlyReplay: readonly string[];
  /** Present in both with different fields. */
  readonly differing: readonly string[];
}

/** JSON with object keys sorted, so field order never counts as a difference. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const label = (b: Belief) => `${b.memoryId} v${b.version}`;

export function compareBeliefs(asOf: readonly Belief[], replay: readonly Belief[]): Agreement {
  const left = new Map(asOf.map((b) => [label(b), canonicalJson(b)]));
  const right = new Map(replay.map((b) => [label(b), canonicalJson(b)]));
  const onlyAsOf = [...left.keys()].filter((k) => !right.has(k));
  const onlyReplay = [...right.keys()].filter((k) => !left.has(k));
  const differing = [...left.keys()].filter((k) => right.has(k) && right.get(k) !== left.get(k));
  const sameOrder = asOf.map(label).join('\n') === replay.map(label).join('\n');
  return {
    agree: onlyAsOf.length === 0 && onlyReplay.length === 0 && differing.length === 0 && sameOrder,
    onlyAsOf,
    onlyReplay,
    differing,
  };
}
