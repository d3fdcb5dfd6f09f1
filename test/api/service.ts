// A real memledger service listening on 127.0.0.1 (an ephemeral port), on a
// fresh test database, for end-to-end tests of the HTTP API; plus a fetch
// helper that returns the status, headers and parsed body.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import { readServiceConfig, type ServiceConfig } from '../../src/api/service/service-config.js';
import { startService, type RunningService } from '../../src/api/service/start-service.js';
import { ApiKeyStore } from '../../src/infrastructure/api-keys/api-key-store.js';
import { USER_CHANNEL_ROLES, type ApiRole, type KeyChannel } from '../../src/infrastructure/api-keys/roles.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly contentType: string;
  readonly body: any;
  readonly text: string;
}

export interface RequestOptions {
  readonly key?: string;
  readonly body?: unknown;
  /** Sent as is (with contentType), instead of JSON. */
  readonly rawBody?: string | Uint8Array;
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
}

export interface TestService {
  readonly url: string;
  readonly env: Record<string, string>;
  readonly database: TestDatabase;
  readonly service: RunningService;
  /**
   * A new API key (the key text); `namespaces` absent: the whole tenant. The suite's writer and admin keys
   * are made for the user's channel (they may claim user_assertion) unless `channel` says otherwise.
   */
  key(tenant: string, role: ApiRole, namespaces?: readonly string[], channel?: KeyChannel): Promise<string>;
  request(method: string, path: string, options?: RequestOptions): Promise<ApiResponse>;
  /** The service's log lines so far (JSON, level info and up). */
  logLines(): readonly string[];
  /** Events in the store (to prove that nothing was appended). */
  eventCount(): Promise<number>;
  close(): Promise<void>;
}

export async function startTestService(
  prefix: string,
  options: {
    readonly env?: Record<string, string>;
    readonly config?: Partial<ServiceConfig>;
    /** Runs on the fresh database before the service starts (e.g. writes a history). */
    readonly beforeStart?: (env: Record<string, string>) => Promise<void>;
  } = {},
): Promise<TestService> {
  const database = await createTestDatabase(prefix);
  const env = { MEMLEDGER_EVENTSTORE_URL: database.url, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'), ...options.env };
  const config: ServiceConfig = { ...readServiceConfig(env, { port: 0, host: '127.0.0.1' }), apiKeyCacheMs: 0, ...options.config };
  // The service logs into memory, as it would to stdout: tests can search what it wrote.
  const logLines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
  let service: RunningService;
  try {
    await options.beforeStart?.(env);
    service = await startService({ config, env, logger });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const keys = new ApiKeyStore(database.url, { poolSize: 1 });
  const request = async (method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse> => {
    const headers: Record<string, string> = { ...(o.key ? { authorization: `Bearer ${o.key}` } : {}), ...o.headers };
    let body: string | Uint8Array | undefined;
    if (o.rawBody !== undefined) {
      body = o.rawBody;
      headers['content-type'] = o.contentType ?? 'application/json';
    } else if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(`${service.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await response.text();
    const contentType = response.headers.get('content-type') ?? '';
    return {
      status: response.status,
      headers: response.headers,
      contentType,
      text,
      body: /json/.test(contentType) && text !== '' ? JSON.parse(text) : text,
    };
  };
  return {
    url: service.url,
    env,
    database,
    service,
    async key(tenant, role, namespaces, channel = USER_CHANNEL_ROLES.includes(role) ? 'user' : 'service') {
      return (await keys.create({ tenant, role, ...(namespaces ? { namespaces } : {}), channel, now: new Date() })).key;
    },
    request,
    logLines: () => logLines,
    async eventCount() {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        return Number((await client.query('select count(*) as n from events')).rows[0].n);
      } finally {
        await client.end();
      }
    },
    async close() {
      await service.stop();
      await keys.close();
      await database.drop();
    },
  };
}

/** A memory entry as a client writes it. */
export function entry(text: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    kind: 'profile',
    key: 'notification.preference',
    value: { type: 'text', text },
    source: { type: 'user_assertion', refs: [`msg://thread-9/${encodeURIComponent(text)}`] },
    ...overrides,
  };
}

/** Expects an RFC 9457 problem with this status, code and field. */
export function problemOf(response: ApiResponse): {
  status: number;
  code: string;
  field?: string;
  detail: string;
  type: string;
  title: string;
} {
  if (!response.contentType.startsWith('application/problem+json'))
    throw new Error(`not a problem (${response.status} ${response.contentType}): ${response.text}`);
  return response.body;
}
