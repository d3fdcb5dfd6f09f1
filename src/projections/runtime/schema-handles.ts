// Typed tables from the projections' database handle. The handle types no
// table, since what it reaches depends on the schema: the registry in
// `public` (RegistryDb), a read model's tables in the schema the registry
// names for it (its Db type: its tables and the runtime's). kysely's
// withTables gives the typed view of the one schema a statement reads, so
// no row is cast.
import type { Kysely } from 'kysely';
import type { RegistryDb } from './registry.js';

/** A database with no table typed: what every projection handle is until a schema is chosen. */
export type NoTables = Record<never, never>;

/** The projections' database, a transaction or a pinned connection on it. */
export type ProjectionsKysely = Kysely<NoTables>;

/** The tables of one schema, typed `DB` (a type alias: kysely wants an index signature). */
export function inSchema<DB extends Record<string, object>>(db: ProjectionsKysely, schema: string): Kysely<DB> {
  return db.withSchema(schema).withTables<DB>();
}

/** The registry of projection schemas (public schema, migration 0003). */
export function registryOf(db: ProjectionsKysely): Kysely<RegistryDb> {
  return db.withTables<RegistryDb>();
}
