// Schemas per projection build: creation, the swap, and dropping. Every
// change to a projection's registry rows happens in a transaction holding the
// projection's registry lock, so two processes never create or swap at once.
import { sql } from 'kysely';
import { identityOf, schemaNameFor, type DefinitionIdentity } from './definition-hash.js';
import { ProjectionRebuildRequired } from './errors.js';
import { ownerKey, readersKey, registryKey } from './lock-keys.js';
import type { ProjectionDefinition } from './projection.js';
import { activeSchema, runtimeTables, schemasOf, type CheckpointDb, type SchemaRow } from './registry.js';
import { inSchema, type ProjectionsKysely, registryOf } from './schema-handles.js';

/**
 * Creates a schema with the projection's tables and an empty checkpoint,
 * registered as `state`. With `takeOwnership`, `db` must be one pinned
 * connection: it takes the new schema's owner lock before the schema exists
 * for anyone else, so nothing can drop it as a leftover.
 */
export async function createSchema(
  db: ProjectionsKysely,
  definition: ProjectionDefinition,
  state: 'active' | 'building',
  takeOwnership = false,
): Promise<SchemaRow> {
  const identity = identityOf(definition);
  let owned: string | undefined;
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${registryKey(definition.name)})`.execute(trx);
      if (state === 'active') {
        const existing = await activeSchema(trx, definition.name);
        if (existing) return existing;
      }
      const registry = registryOf(trx);
      const { max } = await registry
        .selectFrom('projection_schemas')
        .select((eb) => eb.fn.max('build').as('max'))
        .where('projection', '=', definition.name)
        .executeTakeFirstOrThrow();
      const build = (max ?? 0) + 1;
      const schema = schemaNameFor(identity, build);
      // Session level: held after this transaction commits (and even if it rolls back: see the catch).
      if (takeOwnership) {
        await sql`select pg_advisory_lock(${ownerKey(schema)})`.execute(trx);
        owned = schema;
      }
      await sql`create schema ${sql.id(schema)}`.execute(trx);
      for (const statement of definition.tables(trx, schema)) await statement.execute();
      for (const statement of runtimeTables(trx, schema)) await statement.execute();
      await inSchema<CheckpointDb>(trx, schema)
        .insertInto('checkpoint')
        .values({ id: 1, commit: null, prepare: null, events_seen: '0', updated_at: new Date().toISOString() })
        .execute();
      return registry
        .insertInto('projection_schemas')
        .values({
          schema_name: schema,
          projection: definition.name,
          version: identity.version,
          definition_hash: identity.definitionHash,
          build,
          state,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    });
  } catch (error) {
    if (owned !== undefined) await sql`select pg_advisory_unlock(${ownerKey(owned)})`.execute(db).catch(() => undefined);
    throw error;
  }
}

export function matches(row: SchemaRow, identity: DefinitionIdentity): boolean {
  return row.version === identity.version && row.definition_hash === identity.definitionHash;
}

/**
 * The schema to run incrementally: the active one when this code built it;
 * a new empty one when the projection has none yet. A schema built by another
 * definition is refused (rebuild).
 */
export async function ensureActive(db: ProjectionsKysely, definition: ProjectionDefinition): Promise<SchemaRow> {
  const identity = identityOf(definition);
  const row = (await activeSchema(db, definition.name)) ?? (await createSchema(db, definition, 'active'));
  if (!matches(row, identity)) {
    throw new ProjectionRebuildRequired(
      definition.name,
      { schema: row.schema_name, version: row.version, definitionHash: row.definition_hash },
      identity,
    );
  }
  return row;
}

/** The swap: in one transaction the active schema is retired and `schema` becomes active. */
export async function activate(db: ProjectionsKysely, projection: string, schema: string): Promise<SchemaRow | undefined> {
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${registryKey(projection)})`.execute(trx);
    const registry = registryOf(trx);
    const previous = await activeSchema(trx, projection);
    if (previous)
      await registry
        .updateTable('projection_schemas')
        .set({ state: 'retired', retired_at: new Date() })
        .where('schema_name', '=', previous.schema_name)
        .execute();
    await registry
      .updateTable('projection_schemas')
      .set({ state: 'active', activated_at: new Date() })
      .where('schema_name', '=', schema)
      .execute();
    return previous;
  });
}

/**
 * Drops a schema nobody applies events to: takes its owner lock (a projector
 * still running on it keeps it), then the readers' lock exclusively (waiting
 * for reads in flight). Returns false when a projector holds it.
 */
export async function dropSchema(db: ProjectionsKysely, projection: string, schema: string): Promise<boolean> {
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ got: boolean }>`select pg_try_advisory_lock(${ownerKey(schema)}) as got`.execute(conn);
    if (!rows[0]?.got) return false;
    try {
      return await conn.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${registryKey(projection)})`.execute(trx);
        const row = await registryOf(trx)
          .selectFrom('projection_schemas')
          .select('state')
          .where('schema_name', '=', schema)
          .executeTakeFirst();
        if (row?.state === 'active') return false;
        await sql`select pg_advisory_xact_lock(${readersKey(projection)})`.execute(trx);
        await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(trx);
        await registryOf(trx).deleteFrom('projection_schemas').where('schema_name', '=', schema).execute();
        return true;
      });
    } finally {
      await sql`select pg_advisory_unlock(${ownerKey(schema)})`.execute(conn);
    }
  });
}

/** Drops retired schemas, and building ones left by rebuilds that died; returns the names dropped. */
export async function dropLeftovers(
  db: ProjectionsKysely,
  projection: string,
  states: readonly ('retired' | 'building')[] = ['retired'],
): Promise<string[]> {
  const dropped: string[] = [];
  for (const row of await schemasOf(db, projection)) {
    if (!(states as readonly string[]).includes(row.state)) continue;
    if (await dropSchema(db, projection, row.schema_name)) dropped.push(row.schema_name);
  }
  return dropped;
}
