// The CLI's contract (DESIGN section 10): data as JSON on stdout; errors as
// one JSON object on stderr; exit 0 ok, 2 bad input (nothing written),
// 3 refused by the domain, 1 anything else — by code, from the answer table
// the HTTP API reads too (src/answers/answer-table.ts).
import { EXIT, type ExitCode } from '../answers/answer-table.js';
import { knownError } from '../answers/known-error.js';
import type { Rejection, Result } from '../domain/result/result.js';

/** A domain refusal, carried to its exit code. */
export class Refused extends Error {
  override readonly name = 'Refused';
  readonly code: Rejection['code'];
  readonly field?: string;
  constructor(readonly rejection: Rejection) {
    super(rejection.message);
    this.code = rejection.code;
    if (rejection.field !== undefined) this.field = rejection.field;
  }
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The result of a command, or a Refused error for its rejection. */
export function resultOf<R>(outcome: Result<R>): R {
  if (!outcome.ok) throw new Refused(outcome.rejection);
  return outcome.result;
}

export interface ErrorReport {
  readonly exitCode: ExitCode;
  readonly body: { error: string; message: string; field?: string };
}

export function reportError(error: unknown): ErrorReport {
  const known = knownError(error);
  if (known) {
    const { code, message, field } = known;
    return { exitCode: known.answer.exit, body: { error: code, message, ...(field !== undefined ? { field } : {}) } };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.failure, body: { error: 'internal', message } };
}

export function printError(report: ErrorReport): void {
  process.stderr.write(`${JSON.stringify(report.body)}\n`);
}
