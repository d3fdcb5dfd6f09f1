// REFINEMENT (seed 003, issue 17 item 6): a newer, more precise statement of
// the same fact. The rule is deterministic and needs both values in clear
// (the command layer opens the old one at write time; nothing here is
// stored). A new value refines an old one of the same slot when:
//   - both are text: the new value's normalised words (NFKC, lower case,
//     letters and digits) contain every word of the old one, and at least
//     one more ("Berlin" -> "Berlin Mitte, Torstrasse 5");
//   - both are dates: the old one is a calendar date and the new one an
//     instant on that date (UTC) ("2026-03-14" -> "2026-03-14T09:30:00Z").
// Other types (numbers, entities, booleans, JSON) are replaced, never
// refined: "more precise" has no reading there that does not guess.
// A negation never refines an affirmation (the caller compares polarity).
import type { Value } from '../values/value.js';

/** The value types a refinement can exist between: others are never opened to compare. */
export const REFINABLE_VALUE_TYPES: ReadonlySet<Value['type']> = new Set(['text', 'date']);

const WORD = /[\p{L}\p{N}]+/gu;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

function words(text: string): Set<string> {
  return new Set(text.normalize('NFKC').toLowerCase().match(WORD) ?? []);
}

/** True when `newer` states `older` more precisely (see above). */
export function refines(older: Value, newer: Value): boolean {
  if (older.type === 'text' && newer.type === 'text') {
    const before = words(older.text);
    const after = words(newer.text);
    if (before.size === 0 || after.size <= before.size) return false;
    for (const word of before) if (!after.has(word)) return false;
    return true;
  }
  if (older.type === 'date' && newer.type === 'date') {
    if (!DATE_ONLY.test(older.date) || DATE_ONLY.test(newer.date)) return false;
    const instant = Date.parse(newer.date);
    return Number.isFinite(instant) && new Date(instant).toISOString().slice(0, 10) === older.date;
  }
  return false;
}
