// Retention policies (src/infrastructure/retention): per tenant, default
// TTLs by memory kind and sensitivity ('*' matches any), and how long an
// expired entry stays archived (kept for audit, never recalled) before the
// sweeper erases it. The most specific rule of a tenant applies (see
// src/domain/retention/policy.ts). Rules hold no personal content.
import { sql, type Kysely, type Migration } from 'kysely';

export const retentionPoliciesMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE retention_policies (
        tenant text NOT NULL,
        -- a memory kind, or '*'
        kind text NOT NULL,
        -- a sensitivity, or '*'
        sensitivity text NOT NULL,
        -- active at most this long after it was recorded; NULL: no default TTL from this rule
        ttl_seconds bigint CHECK (ttl_seconds IS NULL OR ttl_seconds > 0),
        -- erased this long after it expired; NULL: kept archived
        archive_seconds bigint CHECK (archive_seconds IS NULL OR archive_seconds >= 0),
        updated_at timestamptz NOT NULL,
        updated_by text,
        PRIMARY KEY (tenant, kind, sensitivity)
      )`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE IF EXISTS retention_policies`.execute(db);
  },
};
