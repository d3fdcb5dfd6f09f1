// Where the event store and the projections live, from the environment:
//   MEMLEDGER_EVENTSTORE_URL  postgres://… | postgresql://… | esdb://… | esdb+discover://…
//   MEMLEDGER_DATABASE_URL    projections' PostgreSQL (default: the event store's PostgreSQL;
//                             required when the event store is EventStoreDB)
//   MEMLEDGER_DATA_DIR        the embedded server's folder (default ./.memledger)
//   MEMLEDGER_EMBEDDED_LINGER_SECONDS  how long the embedded server outlives its last client (default 300; 0: stops with it)
// With no URL set, both run on the embedded PostgreSQL of the data folder.
// An empty variable counts as unset (compose files often pass empty values).
import { resolve } from 'node:path';
import { z } from 'zod';
import { acquireEmbeddedServer, EmbeddedServerNotBack, type EmbeddedServerOptions } from './embedded-postgres/index.js';

export const ENV = {
  eventStoreUrl: 'MEMLEDGER_EVENTSTORE_URL',
  databaseUrl: 'MEMLEDGER_DATABASE_URL',
  dataDir: 'MEMLEDGER_DATA_DIR',
  embeddedLingerSeconds: 'MEMLEDGER_EMBEDDED_LINGER_SECONDS',
} as const;

export const DEFAULT_EMBEDDED_LINGER_SECONDS = 300;

export const DEFAULT_DATA_DIR = './.memledger';

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'invalid_config';

  /** `variable` is the environment variable at fault. */
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
  }

  /** The field at fault, as the boundaries name it. */
  get field(): string {
    return this.variable;
  }
}

export type EventStoreConnection = { readonly kind: 'postgres'; readonly url: string } | { readonly kind: 'esdb'; readonly url: string };

export interface MemledgerConfig {
  /** Absent: use the embedded server. */
  readonly eventStore?: EventStoreConnection;
  /** Absent: the event store's PostgreSQL. */
  readonly databaseUrl?: string;
  /** Absolute. */
  readonly dataDir: string;
  /** How long the embedded server outlives its last client. */
  readonly embeddedLingerMs: number;
}

const POSTGRES_SCHEMES = ['postgres:', 'postgresql:'];
// What @eventstore/db-client 6.2.1 parses (its parseConnectionString knows
// esdb:// and esdb+discover:// only; kurrentdb:// came with the later
// @kurrent/kurrentdb-client).
const ESDB_SCHEME = /^esdb(\+discover)?:\/\/[^\s/?#]+/i;

function isPostgresUrl(value: string): boolean {
  try {
    return POSTGRES_SCHEMES.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

const unsetWhenEmpty = (value: unknown): unknown => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const postgresUrl = z
  .string()
  .trim()
  .refine(isPostgresUrl, { message: 'must be a PostgreSQL URL (postgres://user:password@host:port/database)' });

const eventStoreUrl = z
  .string()
  .trim()
  .refine((value) => isPostgresUrl(value) || ESDB_SCHEME.test(value), {
    message:
      'must be a PostgreSQL URL (postgres://… or postgresql://…) or an EventStoreDB connection string (esdb://… or esdb+discover://…)',
  })
  .transform((url): EventStoreConnection => (isPostgresUrl(url) ? { kind: 'postgres', url } : { kind: 'esdb', url }));

const EnvironmentSchema = z.object({
  [ENV.eventStoreUrl]: z.preprocess(unsetWhenEmpty, eventStoreUrl.optional()),
  [ENV.databaseUrl]: z.preprocess(unsetWhenEmpty, postgresUrl.optional()),
  [ENV.dataDir]: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .refine((value) => !value.includes('\0'), { message: 'must be a folder path' })
      .optional(),
  ),
  [ENV.embeddedLingerSeconds]: z.preprocess(
    unsetWhenEmpty,
    z
      .string()
      .trim()
      .regex(/^\d{1,5}$/, { message: 'must be a whole number of seconds from 0 to 86400' })
      .transform(Number)
      .refine((seconds) => seconds <= 86_400, { message: 'must be a whole number of seconds from 0 to 86400' })
      .optional(),
  ),
});

/** Reads and checks the configuration; starts nothing. */
export function readConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): MemledgerConfig {
  const parsed = EnvironmentSchema.safeParse({
    [ENV.eventStoreUrl]: env[ENV.eventStoreUrl],
    [ENV.databaseUrl]: env[ENV.databaseUrl],
    [ENV.dataDir]: env[ENV.dataDir],
    [ENV.embeddedLingerSeconds]: env[ENV.embeddedLingerSeconds],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(String(issue?.path[0] ?? 'environment'), issue?.message ?? 'invalid');
  }
  const eventStore = parsed.data[ENV.eventStoreUrl];
  const databaseUrl = parsed.data[ENV.databaseUrl];
  if (eventStore?.kind === 'esdb' && !databaseUrl) {
    throw new ConfigError(ENV.databaseUrl, `is required when ${ENV.eventStoreUrl} is EventStoreDB: the projections live in PostgreSQL`);
  }
  return {
    ...(eventStore ? { eventStore } : {}),
    ...(databaseUrl ? { databaseUrl } : {}),
    dataDir: resolve(cwd, parsed.data[ENV.dataDir] ?? DEFAULT_DATA_DIR),
    embeddedLingerMs: (parsed.data[ENV.embeddedLingerSeconds] ?? DEFAULT_EMBEDDED_LINGER_SECONDS) * 1000,
  };
}

export interface Connections {
  readonly eventStore: EventStoreConnection;
  /** The projections' PostgreSQL. */
  readonly databaseUrl: string;
  /** True when these point at the data folder's embedded server. */
  readonly embedded: boolean;
  /** Lets go of the embedded server (it stops after the linger time without clients); a no-op otherwise. */
  release(): Promise<void>;
  /** Starts the embedded server again if it died (on the same port, so pools reconnect): true if this call did. False on a configured database. */
  revive(): Promise<boolean>;
}

export interface ResolveOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
  readonly embedded?: Omit<EmbeddedServerOptions, 'dataDir'>;
}

/**
 * The connections to use. Only MEMLEDGER_DATABASE_URL set: the event store
 * uses that PostgreSQL too (no embedded server behind an explicit database).
 * Nothing set: the embedded server, started or joined.
 */
export async function resolveConnections(options: ResolveOptions = {}): Promise<Connections> {
  const config = readConfig(options.env ?? process.env, options.cwd ?? process.cwd());
  const external = { embedded: false, release: () => Promise.resolve(), revive: () => Promise.resolve(false) };
  if (config.eventStore) {
    const databaseUrl = config.databaseUrl ?? config.eventStore.url;
    return { eventStore: config.eventStore, databaseUrl, ...external };
  }
  if (config.databaseUrl) {
    return { eventStore: { kind: 'postgres', url: config.databaseUrl }, databaseUrl: config.databaseUrl, ...external };
  }
  const server = await acquireEmbeddedServer({ lingerMs: config.embeddedLingerMs, ...options.embedded, dataDir: config.dataDir });
  return {
    eventStore: { kind: 'postgres', url: server.url },
    databaseUrl: server.url,
    embedded: true,
    release: () => server.release(),
    revive: async () => {
      const outcome = await server.revive();
      if (outcome !== 'running' && outcome !== 'restarted') throw new EmbeddedServerNotBack(server.dataDir, outcome);
      return outcome === 'restarted';
    },
  };
}
