// The console's only way to data: the service's own /v1 routes, on this
// origin, with the key the auditor typed in (kept in memory, never in a URL
// or in storage). Every refusal comes back as the API's problem, so a view
// can say exactly what the API said.
export interface Problem {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly field?: string;
}

export class ApiProblem extends Error {
  override readonly name = 'ApiProblem';
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

export interface Api {
  get<T>(path: string, query?: Readonly<Record<string, string | undefined>>): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

function withQuery(path: string, query: Readonly<Record<string, string | undefined>> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, value);
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

async function problemOf(response: Response): Promise<Problem> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as Partial<Problem>;
    return {
      status: response.status,
      code: typeof body.code === 'string' ? body.code : 'http_error',
      detail: typeof body.detail === 'string' ? body.detail : `HTTP ${response.status}`,
      ...(typeof body.field === 'string' ? { field: body.field } : {}),
    };
  } catch {
    return { status: response.status, code: 'http_error', detail: `HTTP ${response.status}` };
  }
}

async function call<T>(key: string, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        accept: 'application/json',
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      credentials: 'omit',
    });
  } catch (error) {
    throw new ApiProblem({ status: 0, code: 'unreachable', detail: `the service did not answer (${String(error)})` });
  }
  if (!response.ok) throw new ApiProblem(await problemOf(response));
  return (await response.json()) as T;
}

export function apiClient(key: string): Api {
  return {
    get: (path, query) => call(key, 'GET', withQuery(path, query)),
    post: (path, body) => call(key, 'POST', path, body),
  };
}

/** `/v1/subjects/{subject}…` with the id escaped. */
export function subjectPath(subject: string, rest = ''): string {
  return `/v1/subjects/${encodeURIComponent(subject)}${rest}`;
}

export function artifactPath(artifactId: string, rest = ''): string {
  return `/v1/artifacts/${encodeURIComponent(artifactId)}${rest}`;
}
