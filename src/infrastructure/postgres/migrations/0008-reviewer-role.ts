// The `reviewer` API key role (issue 17: works the write gate's candidates):
// 0004's check on api_keys.role is widened. Applied migrations are never
// edited, so the constraint is replaced here.
import { sql, type Kysely, type Migration } from 'kysely';

export const reviewerRoleMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_check`.execute(db);
    await sql`ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check
      CHECK (role IN ('writer', 'reader', 'auditor', 'reviewer', 'admin'))`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE api_keys DROP CONSTRAINT api_keys_role_check`.execute(db);
    await sql`ALTER TABLE api_keys ADD CONSTRAINT api_keys_role_check CHECK (role IN ('writer', 'reader', 'auditor', 'admin'))`.execute(db);
  },
};
