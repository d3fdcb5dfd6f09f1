// Errors as RFC 9457 problem details (application/problem+json): `type`,
// `title`, `status`, `detail`, plus `code` (the CLI's `error`) and `field`
// (the request field at fault, as the CLI names it). Every error the service
// answers goes through here, so a client parses one shape.
import { ANSWERS, type AnswerCode } from '../answers/answer-table.js';
import { knownError } from '../answers/known-error.js';
import type { Rejection } from '../domain/result/result.js';

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

/** A problem for a code of the answer table, with the table's status. */
export function codeProblem(
  code: AnswerCode,
  detail: string,
  extra: { field?: string | undefined; [k: string]: unknown } = {},
): ProblemError {
  return problemError(ANSWERS[code].http, code, detail, extra);
}

export function refusalProblem(rejection: Rejection, extra: Record<string, unknown> = {}): ProblemError {
  return codeProblem(rejection.code, rejection.message, { field: rejection.field, ...extra });
}

/** What a client is told instead of the error's own message (which names streams and event ids). */
const PUBLIC_DETAILS: Partial<Record<AnswerCode, { readonly detail: string; readonly field?: string }>> = {
  concurrency_exhausted: { detail: 'the subject kept changing under this command; retry it' },
  idempotency_conflict: { detail: 'this Idempotency-Key was used for another request', field: 'Idempotency-Key' },
};

/** Any thrown error as a problem; unknown errors (and the table's 500s) become a 500 that reveals nothing of their message. */
export function problemOf(error: unknown): { problem: Problem; unexpected: boolean } {
  if (error instanceof ProblemError) return { problem: error.problem, unexpected: false };
  const known = knownError(error);
  if (known && known.answer.http !== 500) {
    const told = PUBLIC_DETAILS[known.code];
    const field = told ? told.field : known.field;
    return { problem: problem(known.answer.http, known.code, told?.detail ?? known.message, { field }), unexpected: false };
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
