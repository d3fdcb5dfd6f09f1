// What a projection is to the runtime: a name, a version, the DDL of its
// tables, and a function that applies a batch of events inside the batch's
// transaction. The runtime owns the rest (schemas, checkpoints, ownership,
// rebuilds), so every projection gets the same guarantees.
import type { CompiledQuery, Transaction } from 'kysely';
import type { StoredEvent } from '../../infrastructure/event-store/port.js';
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
   * The prefixes of the streams whose events it reads (absent: any). A page
   * holding none of them (the recall records every recall appends) is not
   * applied: its checkpoint advances in one statement, not a transaction of
   * six round trips.
   */
  readonly streams?: readonly string[];
}
