// A thrown error the boundaries answer by its code (InvalidInput,
// ConfigError, ConcurrencyExhausted, the projections' and the log's
// timeouts, a CLI refusal …): any error whose `code` has a row in the
// answer table. Anything else is answered as `internal`.
import { IdempotencyConflict } from '../infrastructure/event-store/port.js';
import { ANSWERS, isAnswerCode, type Answer, type AnswerCode } from './answer-table.js';

export interface KnownError {
  readonly code: AnswerCode;
  readonly message: string;
  /** The field at fault, when the error names one. */
  readonly field?: string;
  readonly answer: Answer;
}

export function knownError(error: unknown): KnownError | undefined {
  if (!(error instanceof Error)) return undefined;
  // The event store's errors carry no code of their own.
  const code = error instanceof IdempotencyConflict ? 'idempotency_conflict' : (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !isAnswerCode(code)) return undefined;
  const field = (error as { field?: unknown }).field;
  return { code, message: error.message, ...(typeof field === 'string' ? { field } : {}), answer: ANSWERS[code] };
}
