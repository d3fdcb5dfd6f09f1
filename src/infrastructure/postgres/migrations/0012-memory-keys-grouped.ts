// key_store_make_memory_keys: many memory keys in one statement and one commit
// (issue 20: at 32 concurrent records each key was its own round trip and WAL
// flush). Each part is key_store_make_memory_key (migrations 0010, 0011)
// itself, called in the order given, so every part keeps its rules and
// results: the subject's making lock, the live-subject and master-key check,
// an existing row standing. `part` is the part's 1-based place in the arrays.
import { sql, type Kysely, type Migration } from 'kysely';

export const memoryKeysGroupedMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE FUNCTION key_store_make_memory_keys(
        p_locks text[], p_tenants text[], p_subjects text[], p_memory_ids text[],
        p_key_ids text[], p_subject_key_ids text[], p_master_key_ids text[], p_wrapped bytea[])
      RETURNS TABLE (part int, outcome text, memory_id text, key_id text, subject_key_id text, master_key_id text,
                     wrapped_key bytea, created_at timestamptz, forgotten_at timestamptz)
      LANGUAGE plpgsql VOLATILE AS $fn$
      BEGIN
        FOR i IN 1 .. coalesce(array_length(p_locks, 1), 0) LOOP
          RETURN QUERY SELECT i, m.* FROM key_store_make_memory_key(p_locks[i], p_tenants[i], p_subjects[i], p_memory_ids[i],
                                                                   p_key_ids[i], p_subject_key_ids[i], p_master_key_ids[i], p_wrapped[i]) m;
        END LOOP;
      END
      $fn$`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP FUNCTION key_store_make_memory_keys(text[], text[], text[], text[], text[], text[], text[], bytea[])`.execute(db);
  },
};
