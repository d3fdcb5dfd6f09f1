// What an API key is bound to beyond tenant and role (issues 19 and 17):
// - namespaces: the namespace patterns it may act on. Keys made before
//   carry `*` (the whole tenant), so they keep working as they did.
// - channel: `user` for a key made for the user's own channel (the only
//   key whose writes may claim source.type user_assertion), `service` for
//   any other. Keys made before counted as the user's, so they become
//   `user`; keys made from now on are `service` unless made for the user.
// - environment: `production` or `test`, on keys and on tenants (table
//   tenant_environments; a tenant not listed is production). A key reaches
//   only a tenant of its own environment.
import { sql, type Kysely, type Migration } from 'kysely';

export const keyScopesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE api_keys ADD COLUMN namespaces text[] NOT NULL DEFAULT '{*}'`.execute(db);
    await sql`ALTER TABLE api_keys ADD COLUMN channel text NOT NULL DEFAULT 'user' CHECK (channel IN ('user', 'service'))`.execute(db);
    await sql`ALTER TABLE api_keys ALTER COLUMN channel SET DEFAULT 'service'`.execute(db);
    await sql`ALTER TABLE api_keys ADD COLUMN environment text NOT NULL DEFAULT 'production' CHECK (environment IN ('production', 'test'))`.execute(
      db,
    );
    await sql`
      CREATE TABLE tenant_environments (
        tenant text PRIMARY KEY,
        environment text NOT NULL CHECK (environment IN ('production', 'test')),
        marked_at timestamptz NOT NULL
      )`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE IF EXISTS tenant_environments`.execute(db);
    await sql`ALTER TABLE api_keys DROP COLUMN environment`.execute(db);
    await sql`ALTER TABLE api_keys DROP COLUMN channel`.execute(db);
    await sql`ALTER TABLE api_keys DROP COLUMN namespaces`.execute(db);
  },
};
