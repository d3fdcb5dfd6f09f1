// The detectors over every text field of an entry: what the gate knows about
// an entry before the policy decides. Pure and deterministic; a detection
// names the field, the kind and the span, never the value.
import type { Detection, Span } from './detection.js';
import { injectionSpans } from './injection/detect-injection.js';
import { personalSpans } from './personal/detect-personal.js';
import { secretSpans } from './secrets/detect-secrets.js';
import { textFieldsOf, type GateEntry } from './text-fields.js';

/** Every detector over one text. */
export function detectIn(text: string): Span[] {
  return [...secretSpans(text), ...personalSpans(text), ...injectionSpans(text)];
}

export function inspectEntry(entry: GateEntry): Detection[] {
  const detections: Detection[] = [];
  for (const { field, text, context } of textFieldsOf(entry)) {
    const shift = context?.length ?? 0;
    for (const span of detectIn((context ?? '') + text)) {
      if (span.end <= shift) continue; // found in the context alone (a JSON member name)
      detections.push({ field, kind: span.kind, start: Math.max(0, span.start - shift), end: span.end - shift });
    }
  }
  return detections;
}
