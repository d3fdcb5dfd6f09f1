// The projections' registry (src/projections/runtime/schema-registry.ts):
// one row per PostgreSQL schema that holds a build of a projection's tables.
// A projection's tables live in a schema per build, named
// mlp_<projection>_v<version>_<hash8>_b<build>; exactly one build per
// projection is `active` (the one readers use), a rebuild fills a `building`
// one while the active one keeps serving, and the swap is one transaction that
// retires the old and activates the new. Retired schemas are dropped as soon
// as no projector holds them.
import { sql, type Kysely, type Migration } from 'kysely';

export const projectionRegistryMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE projection_schemas (
        schema_name text PRIMARY KEY,
        projection text NOT NULL,
        version integer NOT NULL,
        -- sha256 (hex) of the projection's table definitions
        definition_hash text NOT NULL,
        build integer NOT NULL,
        state text NOT NULL CHECK (state IN ('building', 'active', 'retired')),
        created_at timestamptz NOT NULL DEFAULT now(),
        activated_at timestamptz,
        retired_at timestamptz,
        UNIQUE (projection, build)
      )`.execute(db);
    await sql`CREATE UNIQUE INDEX projection_schemas_one_active ON projection_schemas (projection) WHERE state = 'active'`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE projection_schemas`.execute(db);
  },
};
