// Opens the PostgreSQL event store on a database: brings its schema up to date
// (safe when several processes start at once), then hands out the store,
// which owns its connection pool.
import { Pool } from '../../postgres/pool.js';
import { migrateToLatest } from '../../postgres/migrate.js';
import { plannedOncePool } from '../../postgres/named-statements.js';
import { GROUPS_IN_FLIGHT } from './grouped-append.js';
import { PostgresEventStore } from './store.js';

export interface OpenPostgresEventStoreOptions {
  /** Connections in the pool (default 10); the store also keeps one for LISTEN/NOTIFY. */
  readonly poolSize?: number;
  /** How often a live subscription reads when no notification arrives (default 500 ms). */
  readonly pollIntervalMs?: number;
  /** Run the migrations first (default true). */
  readonly migrate?: boolean;
}

export async function openPostgresEventStore(url: string, options: OpenPostgresEventStoreOptions = {}): Promise<PostgresEventStore> {
  if (options.migrate !== false) await migrateToLatest(url);
  const pool = new Pool({ connectionString: url, max: options.poolSize ?? 10, application_name: 'memledger' });
  return new PostgresEventStore(pool, {
    signalConnection: { connectionString: url, application_name: 'memledger-signal' },
    pollIntervalMs: options.pollIntervalMs ?? 500,
    // One connection per group statement running at once (GroupedAppends' maxInFlight).
    groupPool: plannedOncePool({ connectionString: url, max: GROUPS_IN_FLIGHT, application_name: 'memledger' }),
  });
}
