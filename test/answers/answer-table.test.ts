// The HTTP API and the CLI answer every code from one table: the same code,
// the status and exit code its row gives, the field at fault.
import { describe, expect, it } from 'vitest';
import { ANSWERS } from '../../src/answers/answer-table.js';
import { problemOf, refusalProblem } from '../../src/api/problem.js';
import { Refused, reportError } from '../../src/cli/output.js';
import { ConcurrencyExhausted } from '../../src/commands/stream/handle-commands.js';
import { REJECTION_CODES } from '../../src/domain/result/rejection-codes.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { ConfigError } from '../../src/infrastructure/config.js';
import { IdempotencyConflict, LogHorizonTimeout } from '../../src/infrastructure/event-store/port.js';
import { CatchUpTimeout, ProjectionNotBuilt, ProjectionSchemaRetired, RebuildInProgress } from '../../src/projections/index.js';
import { ProjectionsBehind } from '../../src/queries/projections-behind.js';

describe('the answer table', () => {
  it("answers every rejection with its row: 404 for what does not exist, 422 for what makes no sense, 409 otherwise; exit 3; the write gate's refusals of the input itself exit 2", () => {
    const notFound = ['subject_not_found', 'memory_not_found', 'conflict_not_found', 'artifact_not_found', 'proposal_not_found'];
    // Refused by the write gate before anything is written: bad input (exit 2), 403 for a source type above the credential.
    const badInput: Readonly<Record<string, number>> = { secret_detected: 422, consent_required: 422, source_type_above_credential: 403 };
    const unprocessable = [
      'slot_mismatch',
      'valid_time_order',
      'winner_not_in_conflict',
      'nothing_to_escalate',
      'coverage_beyond_head',
      'gate_failed',
      'policy_rejected',
      'not_superseded',
    ];
    for (const code of REJECTION_CODES) {
      const rejection = { code, message: `refused: ${code}`, field: 'f' };
      const http = refusalProblem(rejection).problem;
      const cli = reportError(new Refused(rejection));
      expect(http).toMatchObject({ status: ANSWERS[code].http, code, detail: rejection.message, field: 'f' });
      expect(cli).toEqual({ exitCode: ANSWERS[code].exit, body: { error: code, message: rejection.message, field: 'f' } });
      if (code === 'generation_failed') expect([http.status, cli.exitCode]).toEqual([502, 1]);
      else if (code in badInput) expect([http.status, cli.exitCode]).toEqual([badInput[code], 2]);
      else expect([http.status, cli.exitCode]).toEqual([notFound.includes(code) ? 404 : unprocessable.includes(code) ? 422 : 409, 3]);
    }
  });

  it('answers errors that are not rejections by their code, the same code at both boundaries', () => {
    const cases: Array<[Error, string, number, number, string | undefined]> = [
      [new InvalidInput('entry.key', 'is required'), 'invalid_input', 400, 2, 'entry.key'],
      [new ConcurrencyExhausted('s-1', 25), 'concurrency_exhausted', 409, 3, undefined],
      [new LogHorizonTimeout(10), 'log_behind', 503, 1, undefined],
      [new ProjectionsBehind('1/2', 10), 'projections_behind', 503, 1, undefined],
      [new ProjectionNotBuilt('memory'), 'projection_not_built', 503, 1, undefined],
      [new CatchUpTimeout('memory', 10), 'projection_catch_up_timeout', 503, 1, undefined],
      [new RebuildInProgress('memory', 'memory_v2'), 'rebuild_in_progress', 503, 1, undefined],
      [new ProjectionSchemaRetired('memory_v1'), 'projection_schema_retired', 503, 1, undefined],
    ];
    for (const [error, code, status, exit, field] of cases) {
      expect(problemOf(error)).toMatchObject({ problem: { status, code }, unexpected: false });
      expect(problemOf(error).problem.field).toBe(field);
      expect(reportError(error)).toEqual({ exitCode: exit, body: { error: code, message: error.message, ...(field ? { field } : {}) } });
    }
  });

  it('tells HTTP clients less than the CLI prints where the message names streams and event ids', () => {
    const conflict = new IdempotencyConflict('subject-acme-u1', 'e-1');
    expect(problemOf(conflict).problem).toMatchObject({
      status: 409,
      code: 'idempotency_conflict',
      detail: 'this Idempotency-Key was used for another request',
      field: 'Idempotency-Key',
    });
    expect(reportError(conflict)).toEqual({ exitCode: 3, body: { error: 'idempotency_conflict', message: conflict.message } });
    expect(problemOf(new ConcurrencyExhausted('subject-acme-u1', 25)).problem.detail).toBe(
      'the subject kept changing under this command; retry it',
    );
  });

  it('keeps a bad setting a CLI error (exit 2) and an internal failure for HTTP; unknown errors are internal at both', () => {
    const config = new ConfigError('MEMLEDGER_PORT', 'must be a port number');
    expect(reportError(config)).toEqual({
      exitCode: 2,
      body: { error: 'invalid_config', message: config.message, field: 'MEMLEDGER_PORT' },
    });
    expect(problemOf(config)).toMatchObject({ problem: { status: 500, code: 'internal' }, unexpected: true });
    const unknown = Object.assign(new Error('boom'), { code: 'ENOTSUP' });
    expect(reportError(unknown)).toEqual({ exitCode: 1, body: { error: 'internal', message: 'boom' } });
    expect(problemOf(unknown)).toMatchObject({ problem: { status: 500, code: 'internal' }, unexpected: true });
    expect(problemOf(unknown).problem.detail).not.toContain('boom');
  });

  it('answers the database out of reach (a socket error, a server shutting down) 503 / exit 1 as database_unavailable', () => {
    for (const code of ['ECONNRESET', 'ECONNREFUSED', '57P01', '08006']) {
      const gone = Object.assign(new Error(`pg: ${code}`), { code });
      expect(reportError(gone)).toEqual({ exitCode: 1, body: { error: 'database_unavailable', message: gone.message } });
      expect(problemOf(gone)).toMatchObject({ problem: { status: 503, code: 'database_unavailable' }, unexpected: false });
      expect(problemOf(gone).problem.detail).not.toContain(code);
    }
  });
});
