// The PostgreSQL type of every column the batch writes through unnest()
// (bulk.ts): one entry per column of the typed table definitions, so a column
// added to a table and not here fails to type-check.
import type { Insertable } from 'kysely';
import type { ConflictsTable, MemoryVersionsTable, SubjectClockTable } from '../tables.js';
import type { ColumnTypes } from './bulk.js';

export const MEMORY_VERSION_TYPES: ColumnTypes<Insertable<MemoryVersionsTable>> = {
  tenant: 'text',
  subject: 'text',
  memory_id: 'text',
  version: 'int4',
  sequence: 'int4',
  status: 'text',
  kind: 'text',
  key: 'text',
  scopes: 'jsonb',
  value_type: 'text',
  value_hash: 'text',
  value: 'jsonb',
  polarity: 'text',
  content: 'jsonb',
  content_hash: 'text',
  anticipated_queries: 'jsonb',
  source_type: 'text',
  source_refs: 'jsonb',
  trust: 'text',
  confidence: 'float8',
  sensitivity: 'text',
  consent_ref: 'text',
  valid_from: 'timestamptz',
  valid_to: 'timestamptz',
  expires_at: 'timestamptz',
  superseded_by: 'text',
  tx_from: 'timestamptz',
  tx_to: 'timestamptz',
  tx_from_commit: 'int8',
  tx_from_prepare: 'int8',
  tx_to_commit: 'int8',
  tx_to_prepare: 'int8',
  opened_by: 'uuid',
  opened_by_type: 'text',
  closed_by: 'uuid',
};

export const CLOCK_TYPES: ColumnTypes<Insertable<SubjectClockTable>> = {
  tenant: 'text',
  subject: 'text',
  high_water_mark: 'int4',
  input_epoch: 'int4',
  stream_revision: 'int8',
  forgotten: 'bool',
  updated_tx: 'timestamptz',
  updated_commit: 'int8',
  updated_prepare: 'int8',
};

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
