// A projection's identity on disk: its version and a hash of its table
// definitions (the DDL kysely compiles from them, with a placeholder schema),
// so a changed column or index is noticed even when nobody bumped the version.
import { createHash } from 'node:crypto';
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import type { ProjectionDefinition } from './projection.js';
import { runtimeTables } from './registry.js';
import type { NoTables } from './schema-handles.js';

const PLACEHOLDER_SCHEMA = 'projection_schema';

/** A kysely that only compiles (never connects). */
const compiler = new Kysely<NoTables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** sha256 (hex) of the compiled DDL statements, in order: the projection's tables, then the runtime's (checkpoint, faults). */
export function definitionHash(definition: ProjectionDefinition): string {
  const statements = [...definition.tables(compiler, PLACEHOLDER_SCHEMA), ...runtimeTables(compiler, PLACEHOLDER_SCHEMA)].map(
    (statement) => statement.compile().sql,
  );
  return createHash('sha256').update(JSON.stringify(statements)).digest('hex');
}

/** The identity the code builds: what a stored schema must match to be run incrementally. */
export interface DefinitionIdentity {
  readonly projection: string;
  readonly version: number;
  readonly definitionHash: string;
}

export function identityOf(definition: ProjectionDefinition): DefinitionIdentity {
  return { projection: definition.name, version: definition.version, definitionHash: definitionHash(definition) };
}

/** `mlp_<name>_v<version>_<hash8>_b<build>`: at most 63 bytes for any name the runtime accepts. */
export function schemaNameFor(identity: DefinitionIdentity, build: number): string {
  return `mlp_${identity.projection}_v${identity.version}_${identity.definitionHash.slice(0, 8)}_b${build}`;
}

const PROJECTION_NAME = /^[a-z][a-z0-9_]{0,23}$/;

export function checkDefinition(definition: ProjectionDefinition): void {
  if (!PROJECTION_NAME.test(definition.name))
    throw new TypeError(`projection name ${JSON.stringify(definition.name)} must match ${PROJECTION_NAME}`);
  if (!Number.isInteger(definition.version) || definition.version < 1)
    throw new TypeError(`projection ${definition.name}: version must be a positive whole number`);
}
