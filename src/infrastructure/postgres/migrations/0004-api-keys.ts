// API keys of the HTTP service (src/infrastructure/api-keys): one row per key.
// Only a SHA-256 digest of the key is stored: the key itself is printed once
// when it is made and never again. Keys are 256-bit random tokens, so a plain
// digest is enough (a slow password hash buys nothing against guessing a
// 256-bit secret). Revoking keeps the row, so a key id is never reused and an
// audit can still tell which key did what.
import { sql, type Kysely, type Migration } from 'kysely';

export const apiKeysMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE api_keys (
        -- the public part of the key (mlk_<key_id>_<secret>), for lookup
        key_id text PRIMARY KEY,
        tenant text NOT NULL,
        role text NOT NULL CHECK (role IN ('writer', 'reader', 'auditor', 'admin')),
        -- sha256 of the whole key text
        key_sha256 bytea NOT NULL,
        label text,
        created_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`.execute(db);
    await sql`CREATE INDEX api_keys_tenant ON api_keys (tenant, created_at)`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE IF EXISTS api_keys`.execute(db);
  },
};
