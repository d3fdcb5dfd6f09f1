// The projections' PostgreSQL as a kysely instance (registry migrated).
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from '../infrastructure/postgres/pool.js';
import { migrateToLatest } from '../infrastructure/postgres/migrate.js';
import { namedStatementsPool, plannedOncePool } from '../infrastructure/postgres/named-statements.js';
import type { NoTables, ProjectionsKysely } from './runtime/schema-handles.js';

export interface ProjectionDatabase {
  readonly db: ProjectionsKysely;
  close(): Promise<void>;
}

export async function openProjectionDatabase(
  url: string,
  options: { readonly poolSize?: number; readonly migrate?: boolean } = {},
): Promise<ProjectionDatabase> {
  if (options.migrate !== false) await migrateToLatest(url);
  const config = { connectionString: url, max: options.poolSize ?? 4, application_name: 'memledger-projections' };
  const pool = new Pool(config);
  // Registered statements (recall's subject statement) are sent by name, on connections of their own: planned once per connection.
  // Half as many: one statement per recall, the rest of its reads on the other pool.
  const plannedOnce = plannedOncePool({ ...config, max: Math.max(1, Math.floor(config.max / 2)) });
  const db = new Kysely<NoTables>({ dialect: new PostgresDialect({ pool: namedStatementsPool(pool, plannedOnce) }) });
  return { db, close: () => db.destroy() };
}
