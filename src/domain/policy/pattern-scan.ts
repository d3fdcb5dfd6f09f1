// Runs a global regular expression over a text and returns typed spans: the
// whole match, or one capture group (regexes here carry the `d` flag so that
// groups have indices).
import { anyMatches } from './any-match.js';
import type { DetectionKind, Span } from './detection.js';

export interface KindPattern {
  readonly kind: DetectionKind;
  readonly re: RegExp;
  /** The capture group that is the finding; 0 (the default) is the whole match. */
  readonly group?: number;
  /** Checks the found text; a false answer drops the finding. */
  readonly accept?: (found: string) => boolean;
}

export function scan(text: string, pattern: KindPattern): Span[] {
  const spans: Span[] = [];
  const group = pattern.group ?? 0;
  for (const m of text.matchAll(pattern.re)) {
    const at: readonly [number, number] | undefined = group === 0 ? [m.index, m.index + m[0].length] : m.indices?.[group];
    const found = m[group];
    if (at === undefined || found === undefined) continue;
    if (pattern.accept && !pattern.accept(found)) continue;
    spans.push({ kind: pattern.kind, start: at[0], end: at[1] });
  }
  return spans;
}

const expressionsOf = new WeakMap<readonly KindPattern[], readonly RegExp[]>();

/** Every pattern's spans; none run when their union finds nothing (any-match.ts). */
export function scanAll(text: string, patterns: readonly KindPattern[]): Span[] {
  let expressions = expressionsOf.get(patterns);
  if (expressions === undefined) {
    expressions = patterns.map((p) => p.re);
    expressionsOf.set(patterns, expressions);
  }
  if (!anyMatches(text, expressions)) return [];
  return patterns.flatMap((p) => scan(text, p));
}
