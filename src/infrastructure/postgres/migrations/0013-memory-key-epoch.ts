// key_store_subjects.memory_key_epoch: how many forgets have destroyed memory
// keys of the subject, bumped in the forget's own transaction (issue 20). A
// warm recall without a query proved each served memory's key still live by
// reading every one of their rows again (~50 per recall); an unchanged epoch,
// one row, proves that no memory key of the subject was destroyed since its
// corpus opened them (postgres-forget.ts, src/queries/recall/opening.ts).
import { sql, type Kysely, type Migration } from 'kysely';

export const memoryKeyEpochMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE key_store_subjects ADD COLUMN memory_key_epoch bigint NOT NULL DEFAULT 0`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`ALTER TABLE key_store_subjects DROP COLUMN memory_key_epoch`.execute(db);
  },
};
