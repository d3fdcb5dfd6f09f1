// The key store (src/infrastructure/key-store): one row per subject and one
// per memory. A live row holds a wrapped key; forgetting sets the key columns
// to NULL and keeps the row as a tombstone, so a forgotten id never gets a key
// again and audits can still see that (and when) it was forgotten. Nothing in
// these tables is usable without the master key, which is never stored here.
//
// Residue: under MVCC, the UPDATE that forgets a key (like a DELETE, or an
// UPDATE to zeros) leaves the old row version, wrapped bytes intact, in the
// heap page. Plain VACUUM marks that space free but does not always overwrite
// it (a tuple next to the page's free space just becomes free space). So the
// key store runs VACUUM FULL on these tables after forgetting, which writes
// them anew (the old files are truncated, then unlinked). The wrapped bytes
// still sit in WAL segments until they are recycled, and in backups: those
// copies are useless without the master key, and rotating the master key
// (PostgresKeyStore.rewrapUnderCurrentMaster, then destroying the old key)
// retires them all.
import { sql, type Kysely, type Migration } from 'kysely';

export const keyStoreMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE key_store_subjects (
        tenant text NOT NULL,
        subject text NOT NULL,
        -- sk_…; NULL only for a subject forgotten before it ever had a key
        key_id text UNIQUE,
        -- fingerprint of the master key that wraps wrapped_secret
        master_key_id text,
        -- nonce || AES-256-GCM(master, 32-byte subject secret) || tag
        wrapped_secret bytea,
        created_at timestamptz,
        forgotten_at timestamptz,
        PRIMARY KEY (tenant, subject),
        CONSTRAINT key_store_subjects_live_or_forgotten CHECK (
          (forgotten_at IS NULL AND key_id IS NOT NULL AND master_key_id IS NOT NULL AND wrapped_secret IS NOT NULL AND created_at IS NOT NULL)
          OR (forgotten_at IS NOT NULL AND master_key_id IS NULL AND wrapped_secret IS NULL)
        )
      )`.execute(db);
    await sql`
      CREATE TABLE key_store_memories (
        tenant text NOT NULL,
        subject text NOT NULL,
        memory_id text NOT NULL,
        -- mk_…; NULL only for a memory forgotten before it ever had a key
        key_id text UNIQUE,
        subject_key_id text,
        -- the master key that, with the subject secret, derives the wrapping key
        master_key_id text,
        -- nonce || AES-256-GCM(HKDF(subject secret, master), 32-byte key) || tag
        wrapped_key bytea,
        created_at timestamptz,
        forgotten_at timestamptz,
        PRIMARY KEY (tenant, subject, memory_id),
        CONSTRAINT key_store_memories_live_or_forgotten CHECK (
          (forgotten_at IS NULL AND key_id IS NOT NULL AND subject_key_id IS NOT NULL AND master_key_id IS NOT NULL AND wrapped_key IS NOT NULL AND created_at IS NOT NULL)
          OR (forgotten_at IS NOT NULL AND master_key_id IS NULL AND wrapped_key IS NULL)
        )
      )`.execute(db);
    // Rotation finds rows still under an old master key.
    await sql`CREATE INDEX key_store_subjects_master ON key_store_subjects (master_key_id) WHERE master_key_id IS NOT NULL`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE IF EXISTS key_store_memories`.execute(db);
    await sql`DROP TABLE IF EXISTS key_store_subjects`.execute(db);
  },
};
