// Embedding vectors of memories (src/infrastructure/vectors): one row per
// memory and embedding model. A vector can be inverted into text, so it is
// stored only sealed under the memory's own key (AES-GCM, the model bound as
// associated data): destroying the key makes it unreadable, and an erasure
// deletes the row. A failed embedding is a row without a vector, kept for a
// retry (`failure_code` and `failure_message` name statuses, never content).
import { sql, type Kysely, type Migration } from 'kysely';

export const memoryVectorsMigration: Migration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`
      CREATE TABLE memory_vectors (
        tenant text NOT NULL,
        subject text NOT NULL,
        memory_id text NOT NULL,
        -- the embedding model's name, as configured (MEMLEDGER_EMBEDDING_MODEL)
        model text NOT NULL,
        dimensions integer CHECK (dimensions > 0),
        -- the sealed envelope of the float32 vector; NULL while the embedding failed
        vector jsonb,
        failure_code text,
        failure_message text,
        attempts integer NOT NULL CHECK (attempts > 0),
        updated_at timestamptz NOT NULL,
        PRIMARY KEY (tenant, subject, memory_id, model),
        CHECK ((vector IS NULL) = (dimensions IS NULL)),
        CHECK ((vector IS NULL) = (failure_code IS NOT NULL))
      )`.execute(db);
  },

  async down(db: Kysely<unknown>): Promise<void> {
    await sql`DROP TABLE IF EXISTS memory_vectors`.execute(db);
  },
};
