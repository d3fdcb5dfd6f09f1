// How the ledger answers each code at its boundaries: the HTTP status of the
// problem (src/api/problem.ts) and the CLI's exit code (src/cli/output.ts),
// read by both from this one table. Adding a code is one row: the compiler
// asks for a row for every rejection code of the domain's list.
import type { RejectionCode } from '../domain/result/rejection-codes.js';

/** The CLI's exit codes: 0 ok, 2 bad input (nothing written), 3 refused by the domain, 1 anything else. */
export const EXIT = { ok: 0, failure: 1, badInput: 2, refused: 3 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

export interface Answer {
  readonly http: number;
  readonly exit: ExitCode;
}

/** 404: not found (another tenant's ids are indistinguishable from none); 422: well-formed but meaningless for what it names; 409: every other state conflict. */
const refused = (http: 404 | 409 | 422): Answer => ({ http, exit: EXIT.refused });

const REJECTIONS: Readonly<Record<RejectionCode, Answer>> = {
  subject_not_found: refused(404),
  memory_not_found: refused(404),
  conflict_not_found: refused(404),
  artifact_not_found: refused(404),
  subject_forgotten: refused(409),
  epoch_changed: refused(409),
  alias_changed: refused(409),
  input_not_active: refused(409),
  input_hash_changed: refused(409),
  new_conflict: refused(409),
  coverage_regressed: refused(409),
  coverage_beyond_head: refused(422),
  memory_id_taken: refused(409),
  idempotency_key_reused: refused(409),
  memory_not_active: refused(409),
  already_retracted: refused(409),
  already_forgotten: refused(409),
  slot_mismatch: refused(422),
  append_only: refused(409),
  valid_time_order: refused(422),
  conflict_id_taken: refused(409),
  conflict_not_open: refused(409),
  winner_not_in_conflict: refused(422),
  winner_not_active: refused(409),
  nothing_to_escalate: refused(422),
  memory_not_demoted: refused(409),
  not_superseded: refused(422),
  // The write gate: what the caller sent may not be stored as sent (a secret, a source type above its key, a missing consentRef): bad input, nothing written.
  secret_detected: { http: 422, exit: EXIT.badInput },
  source_type_above_credential: { http: 403, exit: EXIT.badInput },
  consent_required: { http: 422, exit: EXIT.badInput },
  // The tenant's write policy refuses the entry itself.
  policy_rejected: refused(422),
  proposal_not_found: refused(404),
  proposal_not_pending: refused(409),
  input_forgotten: refused(409),
  nothing_to_consolidate: refused(409),
  gate_failed: refused(422),
  // The summarizer (a model behind the service) failed: not the caller's doing.
  generation_failed: { http: 502, exit: EXIT.failure },
};

/** Thrown errors that are not rejections, by their `code`. A 500 row is answered over HTTP as `internal`, its message kept back. */
const ERRORS = {
  invalid_input: { http: 400, exit: EXIT.badInput },
  invalid_config: { http: 500, exit: EXIT.badInput },
  concurrency_exhausted: { http: 409, exit: EXIT.refused },
  idempotency_conflict: { http: 409, exit: EXIT.refused },
  // The subject's stream holds an event the memory projection could not apply: its reads refuse rather than answer incompletely.
  projection_fault: { http: 409, exit: EXIT.refused },
  // The stream holds an event this code cannot read (the log is immutable): nothing can be decided or answered from it.
  undecodable_event: { http: 409, exit: EXIT.refused },
  // The log or the projections did not catch up in time (a long transaction elsewhere): nothing was done; retry.
  log_behind: { http: 503, exit: EXIT.failure },
  projections_behind: { http: 503, exit: EXIT.failure },
  projection_not_built: { http: 503, exit: EXIT.failure },
  projection_catch_up_timeout: { http: 503, exit: EXIT.failure },
  projection_rebuild_required: { http: 503, exit: EXIT.failure },
  projection_schema_retired: { http: 503, exit: EXIT.failure },
  rebuild_in_progress: { http: 503, exit: EXIT.failure },
  // The database is out of reach (down, restarting, refusing connections): retry shortly.
  database_unavailable: { http: 503, exit: EXIT.failure },
  // Only the CLI meets these two: serve's port is taken; `server stop` while processes use the embedded server.
  port_in_use: { http: 500, exit: EXIT.failure },
  server_in_use: { http: 409, exit: EXIT.refused },
  // The event store's own refusals (src/infrastructure/event-store/store-errors.ts).
  // More than the store takes in one append: bad input, nothing was written.
  append_too_large: { http: 413, exit: EXIT.badInput },
  // The store could not confirm an append, or serve a call: retry (an unconfirmed append under the same key is answered once).
  append_outcome_unknown: { http: 503, exit: EXIT.failure },
  event_store_unavailable: { http: 503, exit: EXIT.failure },
  // A deployment matter (ACLs, a stream deleted by something else): not the caller's doing.
  event_store_access_denied: { http: 503, exit: EXIT.failure },
  stream_deleted: { http: 409, exit: EXIT.failure },
  // `memledger eval`: a condition served a stale or unauthorized memory (a blocking regression; the report still goes to stdout).
  evaluation_blocked: { http: 409, exit: EXIT.refused },
  internal: { http: 500, exit: EXIT.failure },
} as const satisfies Record<string, Answer>;

export const ANSWERS: Readonly<Record<RejectionCode | keyof typeof ERRORS, Answer>> = { ...REJECTIONS, ...ERRORS };
export type AnswerCode = keyof typeof ANSWERS;

export function isAnswerCode(code: string): code is AnswerCode {
  return Object.prototype.hasOwnProperty.call(ANSWERS, code);
}
