// The vector store in the app's PostgreSQL (table: migration 0007). Holds
// only sealed vectors, model names, sizes and failure codes.
import type pg from 'pg';
import { sealedSchema } from '../../domain/events/sealed.js';
import type { SubjectRef } from '../key-store/port.js';
import type { StoredVector, VectorFailure, VectorState, VectorStore } from './port.js';
import { Pool } from '../postgres/pool.js';

interface Row {
  memory_id: string;
  model: string;
  dimensions: number | null;
  vector: unknown;
  attempts: number;
}

/** ANY($n) with an array parameter, or no filter. */
const memoryFilter = (memoryIds: readonly string[] | undefined, index: number) =>
  memoryIds === undefined ? { clause: '', params: [] } : { clause: ` AND memory_id = ANY($${index}::text[])`, params: [memoryIds] };

export class PostgresVectorStore implements VectorStore {
  private readonly pool: pg.Pool;

  constructor(connectionString: string) {
    this.pool = new Pool({ connectionString, max: 2, application_name: 'memledger-vectors' });
  }

  async put(ref: SubjectRef, vectors: readonly StoredVector[], at: Date): Promise<void> {
    if (vectors.length === 0) return;
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `DELETE FROM memory_vectors v USING unnest($3::text[], $4::text[]) AS n(memory_id, model)
         WHERE v.tenant = $1 AND v.subject = $2 AND v.memory_id = n.memory_id AND v.model <> n.model`,
        [ref.tenant, ref.subject, vectors.map((v) => v.memoryId), vectors.map((v) => v.model)],
      );
      await client.query(
        `INSERT INTO memory_vectors (tenant, subject, memory_id, model, dimensions, vector, attempts, updated_at)
         SELECT $1, $2, n.memory_id, n.model, n.dimensions, n.vector, 1, $7
         FROM unnest($3::text[], $4::text[], $5::int[], $6::jsonb[]) AS n(memory_id, model, dimensions, vector)
         ON CONFLICT (tenant, subject, memory_id, model) DO UPDATE
         SET dimensions = excluded.dimensions, vector = excluded.vector, failure_code = NULL, failure_message = NULL,
             attempts = memory_vectors.attempts + 1, updated_at = excluded.updated_at`,
        [
          ref.tenant,
          ref.subject,
          vectors.map((v) => v.memoryId),
          vectors.map((v) => v.model),
          vectors.map((v) => v.dimensions),
          vectors.map((v) => JSON.stringify(v.vector)),
          at.toISOString(),
        ],
      );
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  async recordFailure(ref: SubjectRef, memoryIds: readonly string[], model: string, failure: VectorFailure, at: Date): Promise<void> {
    if (memoryIds.length === 0) return;
    await this.pool.query(
      `INSERT INTO memory_vectors (tenant, subject, memory_id, model, failure_code, failure_message, attempts, updated_at)
       SELECT $1, $2, id, $4, $5, $6, 1, $7 FROM unnest($3::text[]) AS id
       ON CONFLICT (tenant, subject, memory_id, model) DO UPDATE
       SET failure_code = excluded.failure_code, failure_message = excluded.failure_message,
           attempts = memory_vectors.attempts + 1, updated_at = excluded.updated_at
       WHERE memory_vectors.vector IS NULL`,
      [ref.tenant, ref.subject, memoryIds, model, failure.code, failure.message.slice(0, 500), at.toISOString()],
    );
  }

  async read(ref: SubjectRef, model: string, memoryIds?: readonly string[]): Promise<StoredVector[]> {
    const filter = memoryFilter(memoryIds, 4);
    const rows = await this.pool.query<Row>(
      `SELECT memory_id, model, dimensions, vector, attempts FROM memory_vectors
       WHERE tenant = $1 AND subject = $2 AND model = $3 AND vector IS NOT NULL${filter.clause} ORDER BY memory_id`,
      [ref.tenant, ref.subject, model, ...filter.params],
    );
    return rows.rows.map((r) => ({
      memoryId: r.memory_id,
      model: r.model,
      dimensions: r.dimensions!,
      vector: sealedSchema.parse(r.vector),
    }));
  }

  async states(ref: SubjectRef, model: string): Promise<Map<string, VectorState>> {
    const rows = await this.pool.query<Row>(
      `SELECT memory_id, model, dimensions, NULL AS vector, attempts FROM memory_vectors WHERE tenant = $1 AND subject = $2 AND model = $3`,
      [ref.tenant, ref.subject, model],
    );
    return new Map(
      rows.rows.map((r): [string, VectorState] => [
        r.memory_id,
        r.dimensions === null ? { status: 'failed', attempts: r.attempts } : { status: 'embedded', dimensions: r.dimensions },
      ]),
    );
  }

  async forget(ref: SubjectRef, memoryIds?: readonly string[]): Promise<number> {
    const filter = memoryFilter(memoryIds, 3);
    const result = await this.pool.query(`DELETE FROM memory_vectors WHERE tenant = $1 AND subject = $2${filter.clause}`, [
      ref.tenant,
      ref.subject,
      ...filter.params,
    ]);
    return result.rowCount ?? 0;
  }

  async count(ref: SubjectRef, memoryIds?: readonly string[]): Promise<number> {
    const filter = memoryFilter(memoryIds, 3);
    const result = await this.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM memory_vectors WHERE tenant = $1 AND subject = $2${filter.clause}`,
      [ref.tenant, ref.subject, ...filter.params],
    );
    return Number(result.rows[0]?.n ?? 0);
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
