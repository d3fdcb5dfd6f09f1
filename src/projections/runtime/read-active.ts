// How readers find a projection's tables: the registry names the active
// schema. A reader resolves it and reads inside one transaction that holds
// the projection's readers lock (shared), and dropping a schema takes that
// lock exclusively — so a swap never cuts a read off mid-way: a read started
// before the swap finishes on the old schema, and the drop waits for it.
import { sql, type Kysely, type Transaction } from 'kysely';
import { readersKey } from './lock-keys.js';
import { activeSchema, type SchemaRow } from './registry.js';
import { inSchema, type NoTables, type ProjectionsKysely } from './schema-handles.js';

export class ProjectionNotBuilt extends Error {
  override readonly name = 'ProjectionNotBuilt';
  readonly code = 'projection_not_built';
  constructor(readonly projection: string) {
    super(`projection ${projection} has no active schema yet: run \`memledger projections run\``);
  }
}

export async function readActive<DB extends Record<string, object>, T>(
  db: ProjectionsKysely,
  projection: string,
  read: (tables: Kysely<DB>, schema: SchemaRow, trx: Transaction<NoTables>) => Promise<T>,
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock_shared(${readersKey(projection)})`.execute(trx);
    const schema = await activeSchema(trx, projection);
    if (!schema) throw new ProjectionNotBuilt(projection);
    return read(inSchema<DB>(trx, schema.schema_name), schema, trx);
  });
}
