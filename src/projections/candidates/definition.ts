// The pending-candidates read model: its own schema, version, checkpoint and
// rebuild, like the others (src/projections/runtime).
import { SUBJECT_STREAM_PREFIX } from '../../domain/events/stream-names.js';
import type { ProjectionDefinition } from '../runtime/projection.js';
import { inSchema } from '../runtime/schema-handles.js';
import { applyCandidatesBatch } from './apply-batch.js';
import { candidatesTables } from './ddl.js';
import { CANDIDATES_TABLES, type CandidatesDb } from './tables.js';

export const candidatesProjection: ProjectionDefinition = {
  name: 'candidates',
  version: 1,
  description: 'the pending candidates (writes held for review) and when each expires',
  tables: candidatesTables,
  tableNames: CANDIDATES_TABLES,
  apply: (trx, schema, events) => applyCandidatesBatch(inSchema<CandidatesDb>(trx, schema), events),
  // Subject streams only (subjectStreamEvents).
  streams: [SUBJECT_STREAM_PREFIX],
};
