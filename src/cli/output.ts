// The CLI's contract (DESIGN section 10): data as JSON on stdout; errors as
// one JSON object on stderr; exit 0 ok, 2 bad input (nothing written),
// 3 refused by the domain, 1 anything else.
import { PortInUse } from '../api/service/listen-port.js';
import { InvalidInput } from '../domain/validation/invalid-input.js';
import { ConcurrencyExhausted, type CommandOutcome } from '../commands/subject/execute.js';
import type { Rejection } from '../domain/subject/decision.js';
import { ConfigError } from '../infrastructure/config.js';
import { EmbeddedServerInUse, EmbeddedServerNotBack } from '../infrastructure/embedded-postgres/index.js';
import { isDatabaseUnavailable } from '../infrastructure/postgres/unavailable.js';
import { MasterKeyFileExposed, MasterKeyInvalid } from '../infrastructure/key-store/errors.js';
import { LogHorizonTimeout } from '../infrastructure/event-store/port.js';
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
  // The master key's source: MEMLEDGER_MASTER_KEY, MEMLEDGER_MASTER_KEY_PREVIOUS[i] or the key file's path.
  if (error instanceof MasterKeyInvalid)
    return { exitCode: EXIT.badInput, body: { error: 'invalid_config', message: error.message, field: error.source } };
  if (error instanceof MasterKeyFileExposed)
    return { exitCode: EXIT.badInput, body: { error: 'invalid_config', message: error.message, field: error.path } };
  if (error instanceof Refused) {
    const { code, message, field } = error.rejection;
    return { exitCode: EXIT.refused, body: { error: code, message, ...(field ? { field } : {}) } };
  }
  if (error instanceof ConcurrencyExhausted)
    return { exitCode: EXIT.refused, body: { error: 'concurrency_exhausted', message: error.message } };
  // The log or the projections did not catch up in time (a long transaction elsewhere): nothing was done; retry.
  if (error instanceof LogHorizonTimeout || error instanceof ProjectionsBehind)
    return { exitCode: EXIT.failure, body: { error: error.code, message: error.message } };
  if (error instanceof EmbeddedServerInUse) return { exitCode: EXIT.refused, body: { error: error.code, message: error.message } };
  if (isDatabaseUnavailable(error) || error instanceof EmbeddedServerNotBack)
    return { exitCode: EXIT.failure, body: { error: 'database_unavailable', message: (error as Error).message } };
  if (error instanceof PortInUse) return { exitCode: EXIT.failure, body: { error: error.code, message: error.message, field: 'port' } };
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.failure, body: { error: 'internal', message } };
}

/** Progress the user should see (initdb on a fresh folder): a JSON line on stderr, like errors, with `notice` instead of `error`. */
export function printNotice(message: string): void {
  process.stderr.write(`${JSON.stringify({ notice: 'embedded_server', message })}\n`);
}

export function printError(report: ErrorReport): void {
  process.stderr.write(`${JSON.stringify(report.body)}\n`);
}
