// The pending-candidates table (types in tables.ts), indexed by expiry for the sweep.
import type { TableStatement } from '../runtime/projection.js';
import type { ProjectionsKysely } from '../runtime/schema-handles.js';

export function candidatesTables(db: ProjectionsKysely, schema: string): TableStatement[] {
  const s = db.schema.withSchema(schema);
  return [
    s
      .createTable('pending_candidates')
      .addColumn('tenant', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('memory_id', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('pending_candidates_pk', ['tenant', 'subject', 'memory_id']),
    s.createIndex('pending_candidates_due').on('pending_candidates').columns(['expires_at']),
  ];
}
