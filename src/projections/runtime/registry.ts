// The registry of projection schemas (migration 0003) and the checkpoint
// table every projection schema holds, with their typed definitions.
import { sql, type ColumnType, type Selectable } from 'kysely';
import type { Position } from '../../infrastructure/event-store/port.js';
import { createFaultsIndex, createFaultsTable, type FaultsDb } from './faults.js';
import { inSchema, type ProjectionsKysely, registryOf } from './schema-handles.js';

export const SCHEMA_STATES = ['building', 'active', 'retired'] as const;
export type SchemaState = (typeof SCHEMA_STATES)[number];

export interface ProjectionSchemasTable {
  schema_name: string;
  projection: string;
  version: number;
  definition_hash: string;
  build: number;
  state: SchemaState;
  created_at: ColumnType<Date, never, never>;
  activated_at: ColumnType<Date | null, never, Date | null>;
  retired_at: ColumnType<Date | null, never, Date | null>;
}

/** One row: where the schema's tables stand in the log. */
export interface CheckpointTable {
  id: number;
  /** Null before the first event. */
  commit: ColumnType<string | null, string | null, string | null>;
  prepare: ColumnType<string | null, string | null, string | null>;
  /** Events of the log applied (or passed over) so far. */
  events_seen: ColumnType<string, string, string>;
  updated_at: ColumnType<Date, string, string>;
}

export type RegistryDb = {
  projection_schemas: ProjectionSchemasTable;
};

export type CheckpointDb = {
  checkpoint: CheckpointTable;
};

/** The tables the runtime adds to every projection schema. */
export type RuntimeDb = CheckpointDb & FaultsDb;

export type SchemaRow = Selectable<ProjectionSchemasTable>;

export interface Checkpoint {
  readonly position: Position | undefined;
  readonly eventsSeen: number;
  readonly updatedAt: Date;
}

export async function schemaRow(db: ProjectionsKysely, schema: string): Promise<SchemaRow | undefined> {
  return registryOf(db).selectFrom('projection_schemas').selectAll().where('schema_name', '=', schema).executeTakeFirst();
}

export async function activeSchema(db: ProjectionsKysely, projection: string): Promise<SchemaRow | undefined> {
  return registryOf(db)
    .selectFrom('projection_schemas')
    .selectAll()
    .where('projection', '=', projection)
    .where('state', '=', 'active')
    .executeTakeFirst();
}

export async function schemasOf(db: ProjectionsKysely, projection: string): Promise<SchemaRow[]> {
  return registryOf(db).selectFrom('projection_schemas').selectAll().where('projection', '=', projection).orderBy('build').execute();
}

/** The tables the runtime keeps in every projection schema: the checkpoint and the faults (faults.ts). Part of the definition hash. */
export function runtimeTables(db: ProjectionsKysely, schema: string) {
  return [createCheckpointTable(db, schema), createFaultsTable(db, schema), createFaultsIndex(db, schema)];
}

function createCheckpointTable(db: ProjectionsKysely, schema: string) {
  return db.schema
    .withSchema(schema)
    .createTable('checkpoint')
    .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
    .addColumn('commit', 'bigint')
    .addColumn('prepare', 'bigint')
    .addColumn('events_seen', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull());
}

export async function readCheckpoint(db: ProjectionsKysely, schema: string): Promise<Checkpoint> {
  const row = await inSchema<CheckpointDb>(db, schema).selectFrom('checkpoint').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
  return {
    position: row.commit === null || row.prepare === null ? undefined : { commit: BigInt(row.commit), prepare: BigInt(row.prepare) },
    eventsSeen: Number(row.events_seen),
    updatedAt: row.updated_at,
  };
}

/**
 * The checkpoint moved past events the projection does not read, in one
 * statement: false (nothing written) when the schema was retired meanwhile.
 */
export async function advanceCheckpoint(db: ProjectionsKysely, schema: string, position: Position, eventsSeen: number): Promise<boolean> {
  const result = await sql`update ${sql.id(schema, 'checkpoint')}
       set commit = ${position.commit.toString()}, prepare = ${position.prepare.toString()},
           events_seen = ${String(eventsSeen)}, updated_at = ${new Date().toISOString()}
     where id = 1
       and exists (select 1 from projection_schemas where schema_name = ${schema} and state <> 'retired')`.execute(db);
  return Number(result.numAffectedRows ?? 0n) === 1;
}

export async function writeCheckpoint(db: ProjectionsKysely, schema: string, position: Position, eventsSeen: number): Promise<void> {
  await inSchema<CheckpointDb>(db, schema)
    .updateTable('checkpoint')
    .set({
      commit: position.commit.toString(),
      prepare: position.prepare.toString(),
      events_seen: String(eventsSeen),
      updated_at: new Date().toISOString(),
    })
    .where('id', '=', 1)
    .execute();
}
