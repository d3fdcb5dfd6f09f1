// Injection markers over one text, reported at their place in the text as
// written (the markers read the normalised form).
import { withoutOverlaps, type Span } from '../detection.js';
import { anyMatches } from '../any-match.js';
import { scanAll } from '../pattern-scan.js';
import { MARKERS, RAW_MARKERS } from './markers.js';
import { normalise, originalSpan } from './normalise.js';

const MARKER_EXPRESSIONS = MARKERS.map((marker) => marker.re);

export function injectionSpans(text: string): Span[] {
  const normal = normalise(text);
  const found: Span[] = scanAll(text, RAW_MARKERS);
  if (anyMatches(normal.text, MARKER_EXPRESSIONS))
    for (const marker of MARKERS) {
      for (const match of normal.text.matchAll(marker.re)) {
        const [start, end] = originalSpan(normal, match.index, match.index + match[0].length, text);
        found.push({ kind: marker.kind, start, end });
      }
    }
  return withoutOverlaps(found, () => 0);
}
