// key_store_make_memory_key (migration 0010) also checks the master key the
// subject's secret is wrapped under (issue 20): a record may now make a memory
// key with the subject it saw live on an earlier record, without reading the
// subject's row again (postgres-sealing-keys.ts), and a master key rotation
// that re-wrapped the subject meanwhile must send it to the slow path, as a
// re-key or a forget already does. Same signature and results as before.
import { sql, type Kysely, type Migration } from 'kysely';

const body = (masterCheck: boolean) =>
  sql.raw(`
  CREATE OR REPLACE FUNCTION key_store_make_memory_key(
    p_lock text, p_tenant text, p_subject text, p_memory_id text,
    p_key_id text, p_subject_key_id text, p_master_key_id text, p_wrapped bytea)
  RETURNS TABLE (outcome text, memory_id text, key_id text, subject_key_id text, master_key_id text,
                 wrapped_key bytea, created_at timestamptz, forgotten_at timestamptz)
  LANGUAGE plpgsql VOLATILE AS $fn$
  -- the result's column names are variables too: in the statements below, a name means the table's column
  #variable_conflict use_column
  BEGIN
    PERFORM pg_advisory_xact_lock_shared(hashtextextended(p_lock, 0));
    IF NOT EXISTS (SELECT 1 FROM key_store_subjects s
                    WHERE s.tenant = p_tenant AND s.subject = p_subject
                      AND s.key_id = p_subject_key_id AND s.forgotten_at IS NULL
                      ${masterCheck ? 'AND s.master_key_id = p_master_key_id' : ''}) THEN
      RETURN QUERY SELECT 'subject_changed'::text, NULL::text, NULL::text, NULL::text, NULL::text,
                          NULL::bytea, NULL::timestamptz, NULL::timestamptz;
      RETURN;
    END IF;
    INSERT INTO key_store_memories (tenant, subject, memory_id, key_id, subject_key_id, master_key_id, wrapped_key, created_at)
      VALUES (p_tenant, p_subject, p_memory_id, p_key_id, p_subject_key_id, p_master_key_id, p_wrapped, now())
      ON CONFLICT (tenant, subject, memory_id) DO NOTHING;
    RETURN QUERY SELECT 'row'::text, m.memory_id, m.key_id, m.subject_key_id, m.master_key_id,
                        m.wrapped_key, m.created_at, m.forgotten_at
                   FROM key_store_memories m
                  WHERE m.tenant = p_tenant AND m.subject = p_subject AND m.memory_id = p_memory_id;
  END
  $fn$`);

export const memoryKeyMasterCheckMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await body(true).execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await body(false).execute(db);
  },
};
