// What decide returns: the events to append, or why nothing may be appended.
import type { Decided } from '../decider/decider.js';
import type { SubjectEvent, WriteOutcome } from '../events/subject-events.js';

export { WRITE_OUTCOMES, type WriteOutcome } from '../events/subject-events.js';

/** The write decision of RecordMemory / SupersedeMemory. */
export interface WriteDecision {
  readonly outcome: WriteOutcome;
  /** The new entry, or for DUPLICATE the existing entry that was corroborated. */
  readonly memoryId: string;
  readonly sequence: number;
  /** Entries the new one superseded (their valid windows close at its validFrom). */
  readonly supersedes: readonly string[];
  /** Active entries it disagrees with and could not supersede. */
  readonly conflictsWith: readonly string[];
  readonly conflictId?: string;
  /** Why, in short codes naming memory ids (never a value): also on the event as its `decision`. */
  readonly reasons: readonly string[];
}

export type DecideResult = Decided<SubjectEvent, WriteDecision>;

export function accept(events: readonly SubjectEvent[], decision?: WriteDecision): DecideResult {
  return decision ? { ok: true, events, decision } : { ok: true, events };
}
