// A thrown error the boundaries answer by its code (InvalidInput,
// ConfigError, ConcurrencyExhausted, the projections' and the log's
// timeouts, a CLI refusal …): any error whose `code` has a row in the
// answer table, and the database's own errors of being out of reach.
// Anything else is answered as `internal`.
import { IdempotencyConflict } from '../infrastructure/event-store/port.js';
import { isDatabaseUnavailable } from '../infrastructure/postgres/unavailable.js';
import { ANSWERS, isAnswerCode, type Answer, type AnswerCode } from './answer-table.js';

export interface KnownError {
  readonly code: AnswerCode;
  readonly message: string;
  /** The field at fault, when the error names one. */
  readonly field?: string;
  /** What else the error tells the caller (a projection fault's events, an undecodable event's place): its `details`. */
  readonly details?: Readonly<Record<string, unknown>>;
  readonly answer: Answer;
}

export function knownError(error: unknown): KnownError | undefined {
  if (!(error instanceof Error)) return undefined;
  // The event store's errors carry no code of their own.
  const own = error instanceof IdempotencyConflict ? 'idempotency_conflict' : (error as { code?: unknown }).code;
  // pg's errors carry a SQLSTATE or a socket's errno as their code.
  const code = typeof own === 'string' && isAnswerCode(own) ? own : isDatabaseUnavailable(error) ? 'database_unavailable' : undefined;
  if (code === undefined) return undefined;
  const { field, details } = error as { field?: unknown; details?: unknown };
  return {
    code,
    message: error.message,
    ...(typeof field === 'string' ? { field } : {}),
    ...(details !== null && typeof details === 'object' ? { details: details as Record<string, unknown> } : {}),
    answer: ANSWERS[code],
  };
}
