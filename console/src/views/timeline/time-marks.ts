// The positions the two sliders move over. System time T: just after each
// event of the subject stream was committed (as-of includes an event
// recorded at exactly T). Valid time V: every instant where some entry's
// valid window opens or closes, or it expires, plus the commit times, so
// each distinct belief about business time has a position.
import type { DecodedEvent } from '../../api/types.js';

const INSTANT_FIELDS = ['validFrom', 'validTo', 'expiresAt'] as const;

export function systemTimes(events: readonly DecodedEvent[]): string[] {
  return events.map((e) => e.recordedAt);
}

export function validTimes(events: readonly DecodedEvent[]): string[] {
  const marks = new Set<string>();
  for (const e of events) {
    marks.add(e.recordedAt);
    for (const field of INSTANT_FIELDS) {
      const value = e.data[field];
      if (typeof value === 'string') marks.add(new Date(value).toISOString());
    }
  }
  return [...marks].sort();
}

/** The mark at or before `instant` (the first when none is). */
export function markAtOrBefore(marks: readonly string[], instant: string): number {
  let found = 0;
  marks.forEach((m, i) => {
    if (m <= instant) found = i;
  });
  return found;
}
