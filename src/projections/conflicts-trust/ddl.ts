// The conflicts-and-trust read model's tables (types in tables.ts), as kysely
// schema builders for one PostgreSQL schema; hashed by the runtime like every
// definition's DDL.
import type { TableStatement } from '../runtime/projection.js';
import type { ProjectionsKysely } from '../runtime/schema-handles.js';

const INSTANT = 'timestamptz';

export function conflictsTrustTables(db: ProjectionsKysely, schema: string): TableStatement[] {
  const s = db.schema.withSchema(schema);
  return [
    s
      .createTable('conflicts')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('conflict_id', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('scopes', 'jsonb', (c) => c.notNull())
      .addColumn('memory_ids', 'jsonb', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('detected_at', INSTANT, (c) => c.notNull())
      .addColumn('detected_tx', INSTANT, (c) => c.notNull())
      .addColumn('detected_commit', 'bigint', (c) => c.notNull())
      .addColumn('detected_prepare', 'bigint', (c) => c.notNull())
      .addColumn('winner', 'text')
      .addColumn('losers', 'jsonb')
      .addColumn('resolved_at', INSTANT)
      .addColumn('resolved_tx', INSTANT)
      .addColumn('resolved_commit', 'bigint')
      .addColumn('resolved_prepare', 'bigint')
      .addPrimaryKeyConstraint('conflicts_pk', ['tenant', 'subject', 'conflict_id']),
    s
      .createTable('trust_overrides')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('source_ref', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('changed_at', INSTANT, (c) => c.notNull())
      .addColumn('event_id', 'uuid', (c) => c.notNull())
      .addColumn('tx', INSTANT, (c) => c.notNull())
      .addColumn('commit', 'bigint', (c) => c.notNull())
      .addColumn('prepare', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('trust_overrides_pk', ['tenant', 'subject', 'source_ref']),
    s
      .createTable('subject_revisions')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('stream_revision', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('subject_revisions_pk', ['tenant', 'subject']),
  ];
}
