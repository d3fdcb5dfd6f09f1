// What decide returns: the events to append, or why nothing may be appended.
import type { FenceFailure } from '../events/alias.js';
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

export type RejectionCode =
  | FenceFailure
  | 'memory_id_taken'
  | 'memory_not_found'
  | 'memory_not_active'
  | 'already_retracted'
  | 'already_forgotten'
  | 'slot_mismatch'
  | 'valid_time_order'
  | 'conflict_id_taken'
  | 'conflict_not_found'
  | 'conflict_not_open'
  | 'winner_not_in_conflict'
  | 'winner_not_active'
  | 'nothing_to_escalate'
  /** Not the decider's: an idempotency key sent again with another request (src/commands/subject/execute.ts). */
  | 'idempotency_key_reused';

export interface Rejection {
  readonly code: RejectionCode;
  readonly message: string;
  /** The command field at fault, when one is. */
  readonly field?: string;
}

export type DecideResult =
  | { readonly ok: true; readonly events: readonly SubjectEvent[]; readonly decision?: WriteDecision }
  | { readonly ok: false; readonly rejection: Rejection };

export function accept(events: readonly SubjectEvent[], decision?: WriteDecision): DecideResult {
  return decision ? { ok: true, events, decision } : { ok: true, events };
}

export function reject(code: RejectionCode, message: string, field?: string): DecideResult {
  return { ok: false, rejection: field === undefined ? { code, message } : { code, message, field } };
}
