// The conflicts-and-trust read model: each subject's conflicts (open,
// resolved) and the current trust override of each source ref. Its handlers
// read nothing but the event and the stream's last applied revision, so it
// is its own projection (own schema, version, checkpoint and rebuild): a
// change here rebuilds only these tables.
import { SUBJECT_STREAM_PREFIX } from '../../domain/events/stream-names.js';
import type { ProjectionDefinition } from '../runtime/projection.js';
import { applyConflictsTrustBatch } from './batch/apply-batch.js';
import { conflictsTrustTables } from './ddl.js';
import { CONFLICTS_TRUST_TABLES, type ConflictsTrustDb } from './tables.js';
import { inSchema } from '../runtime/schema-handles.js';

export const conflictsTrustProjection: ProjectionDefinition = {
  name: 'conflicts_trust',
  // v1: split out of the memory projection (memory v4).
  version: 1,
  description: 'conflicts per subject (open, resolved) and the current trust override of each source ref',
  tables: conflictsTrustTables,
  tableNames: CONFLICTS_TRUST_TABLES,
  apply: (trx, schema, events) => applyConflictsTrustBatch(inSchema<ConflictsTrustDb>(trx, schema), events),
  // Subject streams only (subjectStreamEvents).
  streams: [SUBJECT_STREAM_PREFIX],
};
