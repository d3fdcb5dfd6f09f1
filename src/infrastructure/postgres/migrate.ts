// Brings a database's schema up to date with the migrations in code. Safe when
// several processes start at once: a session advisory lock, taken on the one
// connection that then runs the migrations, serializes them; late comers find
// nothing left to do. (Kysely takes its own lock too, but only after creating
// its bookkeeping tables, which can race.)
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import { Pool } from './pool.js';
import { migrations } from './migrations/index.js';

/** Arbitrary, fixed: the advisory lock key of memledger's migrations. */
const MIGRATION_LOCK_KEY = 7_358_221_904_117n;

export class MigrationFailed extends Error {
  override readonly name = 'MigrationFailed';
  constructor(
    readonly migration: string | undefined,
    cause: unknown,
  ) {
    super(`migration ${migration ?? '(setup)'} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** Runs every pending migration; returns the names of those it applied. */
export async function migrateToLatest(connectionString: string): Promise<string[]> {
  // One connection for everything, so the session lock covers the migrator's work.
  const pool = new Pool({ connectionString, max: 1, idleTimeoutMillis: 0, application_name: 'memledger-migrate' });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }) });
  try {
    await sql`select pg_advisory_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(db);
    try {
      const migrator = new Migrator({
        db,
        provider: { getMigrations: () => Promise.resolve({ ...migrations }) },
        migrationTableName: 'memledger_migration',
        migrationLockTableName: 'memledger_migration_lock',
      });
      const { error, results } = await migrator.migrateToLatest();
      if (error) throw new MigrationFailed(results?.find((r) => r.status === 'Error')?.migrationName, error);
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(db);
    }
  } finally {
    await db.destroy();
  }
}
