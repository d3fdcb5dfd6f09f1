// The API's errors as values: every non-2xx answer is an RFC 9457 problem
// (src/api/problem.ts) whose `code` is a code of the answer table or one of
// the few the HTTP layer adds; a client switches on `code`. Type-only imports:
// the client loads nothing of the server at run time.
import type { AnswerCode } from '../answers/answer-table.js';

/** Codes only the HTTP layer answers (auth, routing, media types, sizes; src/api/problem.ts, route.ts, auth/). */
export type HttpProblemCode =
  | 'unauthenticated'
  | 'forbidden'
  | 'route_not_found'
  | 'method_not_allowed'
  | 'unsupported_media_type'
  | 'body_too_large'
  | 'uri_too_long'
  | 'bad_request'
  | 'console_file_not_found';

/** The client's own: the answer was not a problem+json body (a proxy's error page, a cut connection's half body). */
export type ClientProblemCode = 'unexpected_response';

export type ProblemCode = AnswerCode | HttpProblemCode | ClientProblemCode;

interface ProblemFields {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail: string;
  /** The request field at fault (`entry.value.text`, `Idempotency-Key`, `subject`), when one is. */
  readonly field?: string;
  readonly instance?: string;
  readonly [extension: string]: unknown;
}

/** A problem, discriminated by its code: `if (p.code === 'subject_not_found') …`. */
export type ApiProblem = { [C in ProblemCode]: ProblemFields & { readonly code: C } }[ProblemCode];

export type ProblemOf<C extends ProblemCode> = Extract<ApiProblem, { code: C }>;

/** A call's answer: the value, or the problem (never thrown; only a failed connection throws). */
export type ApiResult<T> =
  | { readonly ok: true; readonly status: number; readonly value: T; readonly requestId: string | undefined }
  | { readonly ok: false; readonly status: number; readonly problem: ApiProblem; readonly requestId: string | undefined };

/** The body of an error answer as a problem; anything that is not one becomes `unexpected_response` with the status kept. */
export function problemFrom(status: number, body: unknown, text: string): ApiProblem {
  const b = body as Partial<ProblemFields> & { code?: unknown };
  if (b !== null && typeof b === 'object' && typeof b.code === 'string' && typeof b.detail === 'string') return b as ApiProblem;
  return {
    type: 'urn:memledger:problem:unexpected_response',
    title: 'Unexpected response',
    status,
    detail: `the server answered ${status} without a problem body: ${text.slice(0, 200)}`,
    code: 'unexpected_response',
  };
}
