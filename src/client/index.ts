// `memledger/client`: a typed client of memledger's HTTP API on the
// platform's fetch (Node 18+, browsers, Deno, Bun), with no dependency of its
// own. Every call answers an ApiResult: the value, or the API's problem as a
// typed value (discriminated by `code`); only a failed connection throws.
import { problemFrom, type ApiResult } from './problem.js';
import type {
  AsOfQuery,
  BeliefAnswer,
  DeletionReceipt,
  EntryInput,
  LifecycleResult,
  OpenConflict,
  RecallAnswer,
  FeedbackInput,
  PromotionInput,
  PromotionResult,
  RecallAudit,
  RecallOptions,
  RecordResult,
  ReplayQuery,
  SubjectReceipts,
  WriteOptions,
} from './types.js';

export type * from './types.js';
export type { ApiProblem, ApiResult, ProblemCode, ProblemOf, HttpProblemCode, ClientProblemCode } from './problem.js';

export interface ClientOptions {
  /** Where the service listens, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  /** An API key (`memledger keys create`); the tenant comes from it. */
  readonly apiKey: string;
  /** Default: the global fetch. */
  readonly fetch?: typeof fetch;
}

type Query = Readonly<Record<string, string | number | undefined>>;

interface Call {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly path: string;
  readonly query?: Query;
  readonly body?: unknown;
  readonly idempotencyKey?: string | undefined;
}

const segment = (id: string) => encodeURIComponent(id);
const subjectPath = (subject: string) => `/v1/subjects/${segment(subject)}`;

export class MemledgerClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  /** Record an entry: NEW, DUPLICATE (corroborated), REFINEMENT, SUPERSEDES or CONFLICTS, with the decider's reasons. */
  record(subject: string, entry: EntryInput, options: WriteOptions = {}): Promise<ApiResult<RecordResult>> {
    return this.call({ method: 'POST', path: `${subjectPath(subject)}/memories`, body: entry, idempotencyKey: options.idempotencyKey });
  }

  supersede(subject: string, memoryId: string, entry: EntryInput, options: WriteOptions = {}): Promise<ApiResult<RecordResult>> {
    const path = `${subjectPath(subject)}/memories/${segment(memoryId)}/supersede`;
    return this.call({ method: 'POST', path, body: entry, idempotencyKey: options.idempotencyKey });
  }

  retract(subject: string, memoryId: string, reason: string, options: WriteOptions = {}): Promise<ApiResult<LifecycleResult>> {
    const path = `${subjectPath(subject)}/memories/${segment(memoryId)}/retract`;
    return this.call({ method: 'POST', path, body: { reason }, idempotencyKey: options.idempotencyKey });
  }

  /**
   * What an agent may put in its context; with `query`, what answers it, ranked. POST by default (a long
   * question fits); `method: 'GET'` sends the options as query parameters (scopes as `scope.<name>`, shared comma-separated).
   */
  recall(subject: string, options: RecallOptions = {}, how: { readonly method?: 'GET' | 'POST' } = {}): Promise<ApiResult<RecallAnswer>> {
    const path = `${subjectPath(subject)}/recall`;
    if (how.method !== 'GET') return this.call({ method: 'POST', path, body: options });
    const { scopes, shared, includeDemoted, ...rest } = options;
    const query: Record<string, string | number | undefined> = {
      ...rest,
      ...(shared ? { shared: shared.join(',') } : {}),
      includeDemoted: includeDemoted?.toString(),
    };
    for (const [name, value] of Object.entries(scopes ?? {})) query[`scope.${name}`] = value;
    return this.call({ method: 'GET', path, query });
  }

  /** Feedback on a memory the recall `recallId` served: used, ignored, corrected, confirmed or harmful (a writer key). */
  feedback(subject: string, feedback: FeedbackInput, options: WriteOptions = {}): Promise<ApiResult<LifecycleResult>> {
    return this.call({ method: 'POST', path: `${subjectPath(subject)}/feedback`, body: feedback, idempotencyKey: options.idempotencyKey });
  }

  /** Propose a private memory to a shared namespace (`to`): a candidate there until a reviewer accepts it (the key must reach both). */
  promote(subject: string, memoryId: string, promotion: PromotionInput, options: WriteOptions = {}): Promise<ApiResult<PromotionResult>> {
    const path = `${subjectPath(subject)}/memories/${segment(memoryId)}/promotions`;
    return this.call({ method: 'POST', path, body: promotion, idempotencyKey: options.idempotencyKey });
  }

  /** What a recall served, by position, and its question while readable (an auditor's key). */
  recallRecord(subject: string, recallId: string): Promise<ApiResult<RecallAudit>> {
    return this.call({ method: 'GET', path: `${subjectPath(subject)}/recalls/${segment(recallId)}` });
  }

  /** Erase one memory (crypto-shredding) and get the deletion receipt. */
  forget(
    subject: string,
    memoryId: string,
    options: WriteOptions & { readonly reason?: string } = {},
  ): Promise<ApiResult<DeletionReceipt>> {
    const path = `${subjectPath(subject)}/memories/${segment(memoryId)}`;
    return this.call({ method: 'DELETE', path, query: { reason: options.reason }, idempotencyKey: options.idempotencyKey });
  }

  conflicts(subject: string): Promise<ApiResult<OpenConflict[]>> {
    return this.call({ method: 'GET', path: `${subjectPath(subject)}/conflicts` });
  }

  resolveConflict(
    subject: string,
    conflictId: string,
    resolution: { readonly winner: string; readonly reason?: string },
    options: WriteOptions = {},
  ): Promise<ApiResult<LifecycleResult>> {
    const path = `${subjectPath(subject)}/conflicts/${segment(conflictId)}/resolve`;
    return this.call({ method: 'POST', path, body: resolution, idempotencyKey: options.idempotencyKey });
  }

  /** What the system believed at system time T about business time V (an auditor's key). */
  asOf(subject: string, query: AsOfQuery): Promise<ApiResult<BeliefAnswer>> {
    return this.call({ method: 'GET', path: `${subjectPath(subject)}/as-of`, query });
  }

  replay(subject: string, query: ReplayQuery): Promise<ApiResult<BeliefAnswer>> {
    return this.call({ method: 'GET', path: `${subjectPath(subject)}/replay`, query });
  }

  receipts(subject: string): Promise<ApiResult<SubjectReceipts>> {
    return this.call({ method: 'GET', path: `${subjectPath(subject)}/receipts` });
  }

  private async call<T>(call: Call): Promise<ApiResult<T>> {
    const url = new URL(this.baseUrl + call.path);
    for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { authorization: `Bearer ${this.options.apiKey}`, accept: 'application/json' };
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    if (call.idempotencyKey !== undefined) headers['idempotency-key'] = call.idempotencyKey;
    const response = await this.fetch(url, {
      method: call.method,
      headers,
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    });
    const text = await response.text();
    const requestId = response.headers.get('x-request-id') ?? undefined;
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (response.ok && (body !== undefined || text === '')) return { ok: true, status: response.status, value: body as T, requestId };
    return { ok: false, status: response.status, problem: problemFrom(response.status, body, text), requestId };
  }
}

export function createClient(options: ClientOptions): MemledgerClient {
  return new MemledgerClient(options);
}
