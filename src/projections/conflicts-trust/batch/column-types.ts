// The PostgreSQL type of every column the conflicts-and-trust batch writes
// through unnest() (runtime/bulk.ts).
import type { Insertable } from 'kysely';
import type { ColumnTypes } from '../../runtime/bulk.js';
import type { ConflictsTable, SubjectRevisionsTable, TrustOverridesTable } from '../tables.js';

export const CONFLICT_TYPES: ColumnTypes<Insertable<ConflictsTable>> = {
  tenant: 'text',
  subject: 'text',
  conflict_id: 'text',
  key: 'text',
  scopes: 'jsonb',
  memory_ids: 'jsonb',
  status: 'text',
  detected_at: 'timestamptz',
  detected_tx: 'timestamptz',
  detected_commit: 'int8',
  detected_prepare: 'int8',
  winner: 'text',
  losers: 'jsonb',
  resolved_at: 'timestamptz',
  resolved_tx: 'timestamptz',
  resolved_commit: 'int8',
  resolved_prepare: 'int8',
};

export const TRUST_OVERRIDE_TYPES: ColumnTypes<Insertable<TrustOverridesTable>> = {
  tenant: 'text',
  subject: 'text',
  source_ref: 'text',
  level: 'text',
  changed_at: 'timestamptz',
  event_id: 'uuid',
  tx: 'timestamptz',
  commit: 'int8',
  prepare: 'int8',
};

export const SUBJECT_REVISION_TYPES: ColumnTypes<Insertable<SubjectRevisionsTable>> = {
  tenant: 'text',
  subject: 'text',
  stream_revision: 'int8',
};
