// The event store's own refusals reach callers as typed answers: a problem
// with its HTTP status, a CLI exit code — never a generic 500 / exit 1 "internal".
import { describe, expect, it } from 'vitest';
import { problemOf } from '../../src/api/problem.js';
import { EXIT } from '../../src/answers/answer-table.js';
import { reportError } from '../../src/cli/output.js';
import {
  AppendOutcomeUnknown,
  AppendTooLarge,
  EventStoreAccessDenied,
  EventStoreUnavailable,
  StreamDeleted,
} from '../../src/infrastructure/event-store/port.js';

const cases: Array<{ error: Error; status: number; exitCode: number; code: string }> = [
  {
    error: new AppendTooLarge('memory-acme/s1', '2f1d3c1e-7a4b-4c55-9d7e-0b1c2d3e4f50', 1_500_000, 1_048_576),
    status: 413,
    exitCode: EXIT.badInput,
    code: 'append_too_large',
  },
  {
    error: new AppendOutcomeUnknown('memory-acme/s1', new Error('deadline')),
    status: 503,
    exitCode: EXIT.failure,
    code: 'append_outcome_unknown',
  },
  {
    error: new EventStoreUnavailable('a read of $all', new Error('not ready')),
    status: 503,
    exitCode: EXIT.failure,
    code: 'event_store_unavailable',
  },
  { error: new EventStoreAccessDenied('a read of $all'), status: 503, exitCode: EXIT.failure, code: 'event_store_access_denied' },
  { error: new StreamDeleted('memory-acme/s1'), status: 409, exitCode: EXIT.failure, code: 'stream_deleted' },
];

describe.each(cases)('$code', ({ error, status, exitCode, code }) => {
  it(`is HTTP ${status} and CLI exit ${exitCode}`, () => {
    const answer = problemOf(error);
    expect(answer.unexpected).toBe(false);
    expect(answer.problem).toMatchObject({ status, code, detail: error.message });
    expect(reportError(error)).toEqual({ exitCode, body: { error: code, message: error.message } });
  });
});
