// Every reason a command may be refused, for every stream and boundary: one
// list, one meaning per code. The boundaries map each code to an HTTP status
// and a CLI exit code in one table (src/answers/answer-table.ts); the
// compiler asks for a row there for every code added here.
import { FENCE_FAILURES } from '../events/alias.js';

export const REJECTION_CODES = [
  // What the command names does not exist (for the caller's tenant).
  'subject_not_found',
  'memory_not_found',
  'conflict_not_found',
  'artifact_not_found',
  // The switch of a summary alias (stored in ConsolidationRejected, so never renamed). Among them
  // subject_forgotten: the subject was forgotten; its stream takes no more writes and nothing of it is consolidated.
  ...FENCE_FAILURES,
  // Writes and lifecycle commands on a subject stream.
  'memory_id_taken',
  /** The idempotency key was used for another request (a retry sends the same one). */
  'idempotency_key_reused',
  'memory_not_active',
  'already_retracted',
  /** What the command would forget (or retract) was already forgotten. */
  'already_forgotten',
  'slot_mismatch',
  /** An explicit supersede of an append-only record (an episode): record a new one instead (operation-sets.ts). */
  'append_only',
  'valid_time_order',
  'conflict_id_taken',
  'conflict_not_open',
  'winner_not_in_conflict',
  'winner_not_active',
  'nothing_to_escalate',
  /** RestoreMemory of a memory the lifecycle sweeper has not demoted. */
  'memory_not_demoted',
  /** Feedback `corrected` on a memory no newer entry superseded. */
  'not_superseded',
  // The write gate (src/domain/policy): a write refused before anything is written, and candidate review.
  'secret_detected',
  'source_type_above_credential',
  'consent_required',
  'policy_rejected',
  'proposal_not_found',
  'proposal_not_pending',
  // Consolidation.
  'input_forgotten',
  'nothing_to_consolidate',
  'generation_failed',
  'gate_failed',
] as const;
export type RejectionCode = (typeof REJECTION_CODES)[number];
