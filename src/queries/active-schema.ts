// The memory projection's active schema for single-statement reads (recall,
// asOf: the hot read paths). The name is remembered per database handle and
// every statement confirms it as it reads: it selects the schema's registry
// state alongside the rows, in the same snapshot. A schema retired by a
// rebuild's swap answers "retired" and the read is retried on the new one; a
// dropped schema fails with undefined_table and is retried the same way. One
// statement holds its tables' locks until it ends, so a drop (which needs
// them exclusively) never cuts it off mid-way — the guarantee readActive
// gives multi-statement reads with the readers' lock, without the
// transaction's four extra round trips.
import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { subjectStreamName } from '../domain/events/stream-names.js';
import { memoryProjection } from '../projections/memory/definition.js';
import type { MemoryProjectionDb } from '../projections/memory/tables.js';
import { isMissingSchema } from '../projections/runtime/catch-up.js';
import type { FaultsDb } from '../projections/runtime/faults.js';
import { ProjectionNotBuilt } from '../projections/runtime/read-active.js';
import { activeSchema } from '../projections/runtime/registry.js';

const remembered = new WeakMap<Kysely<any>, string>();
const ATTEMPTS = 3;

/** The registry state of `schema`, to select next to the rows read from it (raw SQL: not rewritten into the projection's schema). */
export function schemaState(schema: string): RawBuilder<string | null> {
  return sql<string | null>`(select state from projection_schemas where schema_name = ${schema})`;
}

/**
 * The faults (events the projection passed over) of a subject's stream, in
 * log order, as a JSON array to select next to the rows read: a read that
 * finds any refuses to answer from the incomplete rows.
 */
export function streamFaults(eb: ExpressionBuilder<MemoryProjectionDb, never>, tenant: string, subject: string) {
  return jsonArrayFrom(
    (eb as unknown as ExpressionBuilder<FaultsDb, never>)
      .selectFrom('faults')
      // Positions as text: JSON numbers would round int8 above 2^53.
      .select(['event_id', 'stream', 'event_type', 'recorded_at', 'code', 'message'])
      .select([
        sql<string>`commit::text`.as('commit'),
        sql<string>`prepare::text`.as('prepare'),
        sql<string>`stream_revision::text`.as('stream_revision'),
      ])
      .where('stream', '=', subjectStreamName(tenant, subject))
      .orderBy('commit')
      .orderBy('prepare'),
  );
}

/** Runs `statement` (one SQL statement that also selects schemaState(schema)) on the active schema. */
export async function readActiveStatement<T>(
  projections: Kysely<any>,
  statement: (tables: Kysely<MemoryProjectionDb>, schema: string) => Promise<{ readonly result: T; readonly schemaState: string | null }>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let schema = remembered.get(projections);
    if (schema === undefined) {
      const row = await activeSchema(projections, memoryProjection.name);
      if (!row) throw new ProjectionNotBuilt(memoryProjection.name);
      schema = row.schema_name;
      remembered.set(projections, schema);
    }
    try {
      const read = await statement(projections.withSchema(schema) as unknown as Kysely<MemoryProjectionDb>, schema);
      if (read.schemaState === 'active') return read.result;
    } catch (error) {
      if (!isMissingSchema(error) || attempt >= ATTEMPTS) throw error;
    }
    remembered.delete(projections);
    if (attempt >= ATTEMPTS) throw new Error(`the ${memoryProjection.name} projection changed schema ${ATTEMPTS} times during one read`);
  }
}
