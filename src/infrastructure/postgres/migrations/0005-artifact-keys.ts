// Artifact keys (src/infrastructure/key-store): one row per consolidation
// artifact whose output was sealed. Each artifact's output (claims, open
// items, summary text) is sealed under a key of its own, wrapped by its
// subject like a memory key, so erasing one memory can destroy exactly the
// summaries that restate it. derived_from and parent_artifact_id say which:
// forgetting a memory destroys, in the same transaction, the key of every
// artifact whose derived_from holds it and of every artifact built on one of
// those (parent_artifact_id, transitively). Rows stay as tombstones, like the
// other key tables (see the key store migration's note on residue: the key
// store rewrites these tables after forgetting, too).
import { sql, type Kysely, type Migration } from 'kysely';

export const artifactKeysMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE key_store_artifacts (
        tenant text NOT NULL,
        subject text NOT NULL,
        artifact_id text NOT NULL,
        -- ak_…
        key_id text UNIQUE,
        subject_key_id text,
        -- the master key that, with the subject secret, derives the wrapping key
        master_key_id text,
        -- nonce || AES-256-GCM(HKDF(subject secret, master), 32-byte key) || tag
        wrapped_key bytea,
        -- memory ids the output derives from (manifest inputs and what it cites)
        derived_from text[] NOT NULL DEFAULT '{}',
        parent_artifact_id text,
        created_at timestamptz,
        forgotten_at timestamptz,
        PRIMARY KEY (tenant, subject, artifact_id),
        CONSTRAINT key_store_artifacts_live_or_forgotten CHECK (
          (forgotten_at IS NULL AND key_id IS NOT NULL AND subject_key_id IS NOT NULL AND master_key_id IS NOT NULL AND wrapped_key IS NOT NULL AND created_at IS NOT NULL)
          OR (forgotten_at IS NOT NULL AND master_key_id IS NULL AND wrapped_key IS NULL)
        )
      )`.execute(db);
    // Erasure finds the artifacts of a memory, and the children of an artifact.
    await sql`CREATE INDEX key_store_artifacts_derived_from ON key_store_artifacts USING gin (derived_from)`.execute(db);
    await sql`CREATE INDEX key_store_artifacts_parent ON key_store_artifacts (tenant, subject, parent_artifact_id) WHERE parent_artifact_id IS NOT NULL`.execute(
      db,
    );
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE IF EXISTS key_store_artifacts`.execute(db);
  },
};
