// The projections' PostgreSQL as a kysely instance (registry migrated).
import { Kysely, PostgresDialect } from 'kysely';
import { Pool } from '../infrastructure/postgres/pool.js';
import { migrateToLatest } from '../infrastructure/postgres/migrate.js';
import { namedStatementsPool } from '../infrastructure/postgres/named-statements.js';
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
  const pool = new Pool({ connectionString: url, max: options.poolSize ?? 4, application_name: 'memledger-projections' });
  // Registered statements (recall's subject statement) are sent by name: planned once per connection.
  const db = new Kysely<NoTables>({ dialect: new PostgresDialect({ pool: namedStatementsPool(pool) }) });
  return { db, close: () => db.destroy() };
}
