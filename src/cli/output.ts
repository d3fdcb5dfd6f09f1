// The CLI's contract (DESIGN section 10): data as JSON on stdout; errors as
// one JSON object on stderr; exit 0 ok, 2 bad input (nothing written),
// 3 refused by the domain, 1 anything else.
import { InvalidInput } from '../domain/validation/invalid-input.js';
import { ConcurrencyExhausted, type CommandOutcome } from '../commands/subject/execute.js';
import type { Rejection } from '../domain/subject/decision.js';
import { ConfigError } from '../infrastructure/config.js';
import {
  AppendOutcomeUnknown,
  AppendTooLarge,
  EventStoreAccessDenied,
  EventStoreUnavailable,
  LogHorizonTimeout,
  StreamDeleted,
} from '../infrastructure/event-store/port.js';
import { ProjectionsBehind } from '../queries/projections-behind.js';

export const EXIT = { ok: 0, failure: 1, badInput: 2, refused: 3 } as const;

/** A domain refusal, carried to the exit code 3. */
export class Refused extends Error {
  override readonly name = 'Refused';
  constructor(readonly rejection: Rejection) {
    super(rejection.message);
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The result of a command, or a Refused error for its rejection. */
export function resultOf<R>(outcome: CommandOutcome<R>): R {
  if (!outcome.ok) throw new Refused(outcome.rejection);
  return outcome.result;
}

export interface ErrorReport {
  readonly exitCode: number;
  readonly body: { error: string; message: string; field?: string };
}

export function reportError(error: unknown): ErrorReport {
  if (error instanceof InvalidInput)
    return { exitCode: EXIT.badInput, body: { error: 'invalid_input', message: error.message, field: error.field } };
  if (error instanceof ConfigError)
    return { exitCode: EXIT.badInput, body: { error: 'invalid_config', message: error.message, field: error.variable } };
  // Bad input: more than the store takes in one append, and nothing was written.
  if (error instanceof AppendTooLarge) return { exitCode: EXIT.badInput, body: { error: error.code, message: error.message } };
  if (error instanceof Refused) {
    const { code, message, field } = error.rejection;
    return { exitCode: EXIT.refused, body: { error: code, message, ...(field ? { field } : {}) } };
  }
  if (error instanceof ConcurrencyExhausted)
    return { exitCode: EXIT.refused, body: { error: 'concurrency_exhausted', message: error.message } };
  // The log or the projections did not catch up in time (a long transaction elsewhere): nothing was done; retry.
  // The event store could not answer, confirm or allow it: say which (an unconfirmed append is safe to run again).
  if (
    error instanceof AppendOutcomeUnknown ||
    error instanceof EventStoreUnavailable ||
    error instanceof EventStoreAccessDenied ||
    error instanceof StreamDeleted
  )
    return { exitCode: EXIT.failure, body: { error: error.code, message: error.message } };
  if (error instanceof LogHorizonTimeout || error instanceof ProjectionsBehind)
    return { exitCode: EXIT.failure, body: { error: error.code, message: error.message } };
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.failure, body: { error: 'internal', message } };
}

export function printError(report: ErrorReport): void {
  process.stderr.write(`${JSON.stringify(report.body)}\n`);
}
