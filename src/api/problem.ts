// Errors as RFC 9457 problem details (application/problem+json): `type`,
// `title`, `status`, `detail`, plus `code` (the CLI's `error`) and `field`
// (the request field at fault, as the CLI names it). Every error the service
// answers goes through here, so a client parses one shape.
import { ConcurrencyExhausted } from '../commands/subject/execute.js';
import { InvalidInput } from '../domain/validation/invalid-input.js';
import {
  AppendOutcomeUnknown,
  AppendTooLarge,
  EventStoreAccessDenied,
  EventStoreUnavailable,
  IdempotencyConflict,
  LogHorizonTimeout,
  StreamDeleted,
} from '../infrastructure/event-store/port.js';
import { CatchUpTimeout, ProjectionNotBuilt, ProjectionRebuildRequired, RebuildInProgress } from '../projections/index.js';
import { ProjectionsBehind } from '../queries/projections-behind.js';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  readonly code: string;
  readonly field?: string;
  readonly instance?: string;
  readonly [extension: string]: unknown;
}

/** An error that already is a problem: thrown by routes and the auth check. */
export class ProblemError extends Error {
  override readonly name = 'ProblemError';
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

const TITLES: Readonly<Record<number, string>> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  409: 'Conflict',
  413: 'Content too large',
  415: 'Unsupported media type',
  422: 'Unprocessable content',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
};

export function problem(
  status: number,
  code: string,
  detail: string,
  extra: { field?: string | undefined; [k: string]: unknown } = {},
): Problem {
  const { field, ...rest } = extra;
  return {
    type: `urn:memledger:problem:${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...(field !== undefined && field !== '' ? { field } : {}),
    ...rest,
  };
}

export function problemError(
  status: number,
  code: string,
  detail: string,
  extra: { field?: string | undefined; [k: string]: unknown } = {},
): ProblemError {
  return new ProblemError(problem(status, code, detail, extra));
}

/** Refusals about something that does not exist (for the caller's tenant: another tenant's ids are indistinguishable). */
const NOT_FOUND = new Set(['memory_not_found', 'conflict_not_found', 'artifact_not_found', 'subject_not_found']);
/** Refusals of a request that is well-formed but makes no sense for what it names. */
const UNPROCESSABLE = new Set([
  'slot_mismatch',
  'valid_time_order',
  'winner_not_in_conflict',
  'nothing_to_escalate',
  'coverage_beyond_head',
  'gate_failed',
]);
/** The summarizer (a model behind the service) failed. */
const UPSTREAM = new Set(['generation_failed']);

/** The HTTP status of a domain refusal: 404, 422, 502, or 409 for every other state conflict. */
export function statusOfRefusal(code: string): number {
  if (NOT_FOUND.has(code)) return 404;
  if (UNPROCESSABLE.has(code)) return 422;
  if (UPSTREAM.has(code)) return 502;
  return 409;
}

export function refusalProblem(
  refusal: { readonly code: string; readonly message: string; readonly field?: string | undefined },
  extra: Record<string, unknown> = {},
): ProblemError {
  return problemError(statusOfRefusal(refusal.code), refusal.code, refusal.message, { field: refusal.field, ...extra });
}

/** Any thrown error as a problem; unknown errors become a 500 that reveals nothing of their message. */
export function problemOf(error: unknown): { problem: Problem; unexpected: boolean } {
  if (error instanceof ProblemError) return { problem: error.problem, unexpected: false };
  if (error instanceof InvalidInput)
    return { problem: problem(400, 'invalid_input', error.message, { field: error.field }), unexpected: false };
  if (error instanceof ConcurrencyExhausted)
    return {
      problem: problem(409, 'concurrency_exhausted', 'the subject kept changing under this command; retry it', {}),
      unexpected: false,
    };
  // Nothing was written; the request carries more than the store takes in one append.
  if (error instanceof AppendTooLarge) return { problem: problem(413, error.code, error.message, { field: 'body' }), unexpected: false };
  if (error instanceof StreamDeleted) return { problem: problem(409, error.code, error.message), unexpected: false };
  if (error instanceof IdempotencyConflict)
    return {
      problem: problem(409, 'idempotency_conflict', 'this Idempotency-Key was used for another request', { field: 'Idempotency-Key' }),
      unexpected: false,
    };
  if (
    error instanceof ProjectionNotBuilt ||
    error instanceof CatchUpTimeout ||
    error instanceof RebuildInProgress ||
    error instanceof ProjectionRebuildRequired ||
    error instanceof LogHorizonTimeout ||
    // The event store could not answer or confirm: retry (an unconfirmed append is idempotent under the same Idempotency-Key).
    error instanceof AppendOutcomeUnknown ||
    error instanceof EventStoreUnavailable ||
    error instanceof EventStoreAccessDenied ||
    error instanceof ProjectionsBehind
  ) {
    return { problem: problem(503, error.code, error.message), unexpected: false };
  }
  const fastify = fastifyProblem(error);
  if (fastify) return { problem: fastify, unexpected: false };
  return { problem: problem(500, 'internal', 'the service failed to answer this request; it has been logged'), unexpected: true };
}

/** Errors fastify raises before a route runs: a body that is not JSON, too large, of a type the route does not take. */
function fastifyProblem(error: unknown): Problem | undefined {
  const e = error as { code?: unknown; statusCode?: unknown; message?: unknown } | null;
  if (!e || typeof e.code !== 'string' || typeof e.statusCode !== 'number' || e.statusCode >= 500) return undefined;
  const message = typeof e.message === 'string' ? e.message : 'bad request';
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem(415, 'unsupported_media_type', 'the body must be application/json', { field: 'Content-Type' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem(413, 'body_too_large', message, { field: 'body' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problem(400, 'invalid_input', 'body: a JSON body is required', { field: 'body' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problem(400, 'invalid_input', message, { field: 'Content-Length' });
    default:
      if (e.statusCode === 400 && /JSON/i.test(message))
        return problem(400, 'invalid_input', `body: is not valid JSON: ${message}`, { field: 'body' });
      return problem(e.statusCode, 'bad_request', message);
  }
}
