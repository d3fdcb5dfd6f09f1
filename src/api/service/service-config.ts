// The service's own settings, from the environment (the store's are read by
// src/infrastructure/config.ts). Each is checked; a bad one is a ConfigError
// naming the variable, before anything starts.
//   MEMLEDGER_HOST                     listen address (default 127.0.0.1)
//   MEMLEDGER_PORT                     listen port (default 8080; 0 = any free port)
//   MEMLEDGER_LOG_LEVEL                fatal | error | warn | info | debug | trace | silent (default info)
//   MEMLEDGER_API_KEY_CACHE_MS         how long a key lookup is reused; revocation takes effect within it (default 5000)
//   MEMLEDGER_SWEEP_INTERVAL_MS        TTL sweeper period (default 60000; 0 = no sweeper)
//   MEMLEDGER_LIFECYCLE_SWEEP_MS       lifecycle sweeper period: demotion, capacity archive (default 3600000; 0 = none)
//   MEMLEDGER_CONSOLIDATION_WORKERS    consolidation workers in the process (default 1; 0 = none)
//   MEMLEDGER_CONSOLIDATION_THRESHOLD  new entries since the alias's coverage that make a subject due (default 50)
//   MEMLEDGER_CONSOLIDATION_POLL_MS    how often workers look for due subjects (default 1000)
//   MEMLEDGER_CONSOLIDATION_DEFER_MS   off-peak: how long a due subject may wait while the service is busy (default 60000; 0 = never)
//   MEMLEDGER_READY_MAX_LAG_SECONDS    /readyz fails while a projection lags more than this (default 10)
//   MEMLEDGER_DRAIN_TIMEOUT_MS         on SIGTERM, how long in-flight work may take to finish (default 10000)
//   MEMLEDGER_SERVE_WORKERS            processes serving the port (default 1: no cluster; see serve-workers.ts)
//   MEMLEDGER_DATABASE_CHECK_MS        how often the database is pinged (and the embedded server revived if it died; default 1000)
//   MEMLEDGER_CONSOLE_DIR              the built auditor's console served at /console (default: the package's console/dist)
import { ConfigError } from '../../infrastructure/config.js';

export interface ServiceConfig {
  readonly host: string;
  readonly port: number;
  readonly logLevel: string;
  readonly apiKeyCacheMs: number;
  readonly sweepIntervalMs: number;
  readonly lifecycleSweepMs: number;
  readonly consolidationWorkers: number;
  readonly consolidationThreshold: number;
  readonly consolidationPollMs: number;
  readonly consolidationDeferMs: number;
  readonly readyMaxLagSeconds: number;
  readonly drainTimeoutMs: number;
  readonly databaseCheckIntervalMs: number;
  readonly workers: number;
  readonly consoleDir?: string;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const HOST = /^[A-Za-z0-9.:_-]{1,253}$|^\[[0-9A-Fa-f:.]+\]$/;

function whole(env: NodeJS.ProcessEnv, variable: string, fallback: number, min: number, max: number): number {
  const text = env[variable]?.trim();
  if (text === undefined || text === '') return fallback;
  const n = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new ConfigError(variable, `must be a whole number from ${min} to ${max}`);
  return n;
}

export function readServiceConfig(
  env: NodeJS.ProcessEnv,
  overrides: { readonly host?: string; readonly port?: number; readonly workers?: number } = {},
): ServiceConfig {
  const host = overrides.host ?? (env.MEMLEDGER_HOST?.trim() || '127.0.0.1');
  if (!HOST.test(host))
    throw new ConfigError(overrides.host !== undefined ? 'host' : 'MEMLEDGER_HOST', 'must be a host name or IP address');
  const logLevel = env.MEMLEDGER_LOG_LEVEL?.trim() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel))
    throw new ConfigError('MEMLEDGER_LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    host,
    port: overrides.port ?? whole(env, 'MEMLEDGER_PORT', 8080, 0, 65535),
    logLevel,
    apiKeyCacheMs: whole(env, 'MEMLEDGER_API_KEY_CACHE_MS', 5000, 0, 3_600_000),
    sweepIntervalMs: whole(env, 'MEMLEDGER_SWEEP_INTERVAL_MS', 60_000, 0, 86_400_000),
    lifecycleSweepMs: whole(env, 'MEMLEDGER_LIFECYCLE_SWEEP_MS', 3_600_000, 0, 86_400_000),
    consolidationWorkers: whole(env, 'MEMLEDGER_CONSOLIDATION_WORKERS', 1, 0, 64),
    consolidationThreshold: whole(env, 'MEMLEDGER_CONSOLIDATION_THRESHOLD', 50, 1, 1_000_000),
    consolidationPollMs: whole(env, 'MEMLEDGER_CONSOLIDATION_POLL_MS', 1000, 10, 3_600_000),
    consolidationDeferMs: whole(env, 'MEMLEDGER_CONSOLIDATION_DEFER_MS', 60_000, 0, 86_400_000),
    readyMaxLagSeconds: whole(env, 'MEMLEDGER_READY_MAX_LAG_SECONDS', 10, 0, 86_400),
    drainTimeoutMs: whole(env, 'MEMLEDGER_DRAIN_TIMEOUT_MS', 10_000, 0, 600_000),
    databaseCheckIntervalMs: whole(env, 'MEMLEDGER_DATABASE_CHECK_MS', 1000, 100, 600_000),
    workers: overrides.workers ?? whole(env, 'MEMLEDGER_SERVE_WORKERS', 1, 1, 64),
    ...(env.MEMLEDGER_CONSOLE_DIR?.trim() ? { consoleDir: env.MEMLEDGER_CONSOLE_DIR.trim() } : {}),
  };
}
