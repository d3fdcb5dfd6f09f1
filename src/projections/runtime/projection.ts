// What a projection is to the runtime: a name, a version, the DDL of its
// tables, and a function that applies a batch of events inside the batch's
// transaction. The runtime owns the rest (schemas, checkpoints, ownership,
// rebuilds), so every projection gets the same guarantees.
import type { CompiledQuery, Transaction } from 'kysely';
import type { LogFilter, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { NoTables, ProjectionsKysely } from './schema-handles.js';

/** A DDL statement built by kysely's schema builder (create table, create index). */
export interface TableStatement {
  compile(): CompiledQuery;
  execute(): Promise<unknown>;
}

export interface ProjectionDefinition {
  /** Lowercase letters, digits and underscores: part of the schema name. */
  readonly name: string;
  /** Bump when the meaning of the rows changes; the DDL is hashed on its own. */
  readonly version: number;
  readonly description: string;
  /** The projection's tables in `schema` (the runtime adds its checkpoint table). */
  tables(db: ProjectionsKysely, schema: string): TableStatement[];
  readonly tableNames: readonly string[];
  /**
   * Applies events (in log order, every event of the log: a projection skips
   * what it does not read) inside `trx`, which also commits the checkpoint.
   * Must be deterministic: the same events on the same rows give the same rows.
   */
  apply(trx: Transaction<NoTables>, schema: string, events: readonly StoredEvent[]): Promise<void>;
  /**
   * The prefixes of the streams whose events it reads (absent: any). The
   * runtime reads only those (the recall records every recall appends are
   * never fetched nor parsed by it): its checkpoint moves past the others
   * with the next batch it applies, or in one statement of its own.
   */
  readonly streams?: readonly string[];
}

/** The part of the log a projection reads (undefined: all of it). */
export function projectionFilter(definition: Pick<ProjectionDefinition, 'streams'>): LogFilter | undefined {
  return definition.streams ? { streamPrefixes: definition.streams } : undefined;
}
