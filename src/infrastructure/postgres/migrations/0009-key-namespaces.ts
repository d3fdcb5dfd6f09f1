// API keys bound to namespaces (issue 19): a key carries the namespace
// patterns it may act on. Keys made before carry `*` (the whole tenant), so
// they keep working as they did.
import { sql, type Kysely, type Migration } from 'kysely';

export const keyNamespacesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE api_keys ADD COLUMN namespaces text[] NOT NULL DEFAULT '{*}'`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE api_keys DROP COLUMN namespaces`.execute(db);
  },
};
