// The read models' active schemas for single-statement reads (recall,
// asOf: the hot read paths). The names are remembered per database handle and
// every statement confirms them as it reads: it selects the schemas' registry
// state alongside the rows, in the same snapshot. A schema retired by a
// rebuild's swap answers "retired" and the read is retried on the new one; a
// dropped schema fails with undefined_table and is retried the same way. One
// statement holds its tables' locks until it ends, so a drop (which needs
// them exclusively) never cuts it off mid-way — the guarantee readActive
// gives multi-statement reads with the readers' lock, without the
// transaction's four extra round trips.
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import { subjectStreamName } from '../domain/events/stream-names.js';
import { conflictsTrustProjection } from '../projections/conflicts-trust/definition.js';
import type { ConflictsTrustDb } from '../projections/conflicts-trust/tables.js';
import { memoryProjection } from '../projections/memory/definition.js';
import type { MemoryProjectionDb } from '../projections/memory/tables.js';
import { isMissingSchema } from '../projections/runtime/catch-up.js';
import type { FaultsDb } from '../projections/runtime/faults.js';
import { ProjectionNotBuilt } from '../projections/runtime/read-active.js';
import { activeSchema } from '../projections/runtime/registry.js';
import { inSchema, type ProjectionsKysely } from '../projections/runtime/schema-handles.js';

/** The read models a one-statement read can join, each scoped to its active schema. */
export interface ActiveReadModels {
  readonly memory: Kysely<MemoryProjectionDb>;
  readonly conflictsTrust: Kysely<ConflictsTrustDb>;
  /** Each schema's faults table (streamFaults). */
  readonly faults: { readonly memory: Kysely<FaultsDb>; readonly conflictsTrust: Kysely<FaultsDb> };
  /** To select next to the rows (as schema_state): 'active' while every schema above is still its read model's active one. */
  readonly schemaState: RawBuilder<string | null>;
  /** The active schema of each read model (what a cache of its rows is keyed by). */
  readonly schemas: ActiveNames;
}

interface ActiveNames {
  readonly memory: string;
  readonly conflictsTrust: string;
}

const remembered = new WeakMap<ProjectionsKysely, ActiveNames>();
const ATTEMPTS = 3;

/** 'active' when every one of `schemas` is active in the registry (raw SQL: not rewritten into a projection's schema). */
export function schemaState(...schemas: string[]): RawBuilder<string | null> {
  return sql<string | null>`(select case when count(*) filter (where state = 'active') = ${schemas.length} then 'active' else 'replaced' end
    from projection_schemas where schema_name = any(${sql.val(schemas)}::text[]))`;
}

/**
 * The faults (events a read model passed over) of a subject's stream, in
 * log order, as a JSON array to select next to the rows read (`faults`: a
 * read model's schema, as ActiveReadModels.faults gives it):
 * a read that finds any refuses to answer from the incomplete rows.
 */
export function streamFaults(faults: Kysely<FaultsDb>, tenant: string, subject: string) {
  return jsonArrayFrom(
    faults
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

/** Runs `statement` (one SQL statement that also selects `read.schemaState`) on the active schemas. */
export async function readActiveStatement<T>(
  projections: ProjectionsKysely,
  statement: (read: ActiveReadModels) => Promise<{ readonly result: T; readonly schemaState: string | null }>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let names = remembered.get(projections);
    if (names === undefined) {
      names = {
        memory: await activeName(projections, memoryProjection.name),
        conflictsTrust: await activeName(projections, conflictsTrustProjection.name),
      };
      remembered.set(projections, names);
    }
    try {
      const read = await statement({
        memory: inSchema<MemoryProjectionDb>(projections, names.memory),
        conflictsTrust: inSchema<ConflictsTrustDb>(projections, names.conflictsTrust),
        faults: {
          memory: inSchema<FaultsDb>(projections, names.memory),
          conflictsTrust: inSchema<FaultsDb>(projections, names.conflictsTrust),
        },
        schemaState: schemaState(names.memory, names.conflictsTrust),
        schemas: names,
      });
      if (read.schemaState === 'active') return read.result;
    } catch (error) {
      if (!isMissingSchema(error) || attempt >= ATTEMPTS) throw error;
    }
    remembered.delete(projections);
    if (attempt >= ATTEMPTS) throw new Error(`the read models changed schema ${ATTEMPTS} times during one read`);
  }
}

async function activeName(projections: ProjectionsKysely, projection: string): Promise<string> {
  const row = await activeSchema(projections, projection);
  if (!row) throw new ProjectionNotBuilt(projection);
  return row.schema_name;
}
