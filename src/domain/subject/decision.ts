// What decide returns: the events to append, or why nothing may be appended.
import type { Decided } from '../decider/decider.js';
import type { SubjectEvent } from '../events/subject-events.js';

export const WRITE_OUTCOMES = ['NEW', 'DUPLICATE', 'SUPERSEDES', 'CONFLICTS'] as const;
export type WriteOutcome = (typeof WRITE_OUTCOMES)[number];

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
}

export type DecideResult = Decided<SubjectEvent, WriteDecision>;

export function accept(events: readonly SubjectEvent[], decision?: WriteDecision): DecideResult {
  return decision ? { ok: true, events, decision } : { ok: true, events };
}
