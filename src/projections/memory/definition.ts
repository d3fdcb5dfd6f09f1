// The memory projection: the bitemporal memory table, subject clocks,
// summary aliases, artifacts, lineage and STALE sets (DESIGN section 6),
// from the subject and artifact streams. One read model, since the artifact
// rules read the memories' versions (an input's version, source and trust
// at generation; STALE when it leaves active; erasure of the edges' hashes).
import { ARTIFACT_STREAM_PREFIX, SUBJECT_STREAM_PREFIX } from '../../domain/events/stream-names.js';
import type { ProjectionDefinition } from '../runtime/projection.js';
import { applyMemoryBatch } from './batch/apply-batch.js';
import { memoryTables } from './ddl.js';
import { MEMORY_PROJECTION_TABLES, type MemoryProjectionDb } from './tables.js';
import { inSchema } from '../runtime/schema-handles.js';

export const memoryProjection: ProjectionDefinition = {
  name: 'memory',
  // v1: first layout. v2: lineage edges to a forgotten memory keep no keyed
  // hashes, edges are indexed by target subject, and trust_overrides holds
  // each source ref's current TrustChanged level (a v1 schema must be rebuilt).
  // v3: an event that cannot be applied is recorded as a fault and passed
  // over instead of stopping the projection (runtime/faults.ts), and
  // memory_versions.anticipated_queries holds the entry's sealed anticipated
  // queries (rebuild a v2 schema).
  // v4: conflicts and trust_overrides moved to their own read model
  // (conflicts-trust/definition.ts); rebuild a v3 schema.
  // v5: the lifecycle and feedback (issue 18): memory_versions.status may be
  // 'archived' (MemoryArchived), memory_demotions holds each MemoryDemoted /
  // MemoryRestored, memory_usage what feedback said about each memory
  // (counts, lastReinforcedAt, under review); rebuild a v4 schema.
  // v6: memory_versions.purposes (the entry's purpose labels, recall's
  // purpose filter) and memory_versions.refines (REFINEMENT lineage) (issue
  // 17), and memory_versions.promoted_from, an accepted promotion's origin
  // (issue 19: the private memory a shared one copies); rebuild a v5 schema.
  version: 6,
  description:
    'bitemporal memory versions, subject clocks, corroborations, feedback usage, taint escalations, summary aliases, artifacts, lineage and STALE sets',
  tables: memoryTables,
  tableNames: MEMORY_PROJECTION_TABLES,
  apply: (trx, schema, events) => applyMemoryBatch(inSchema<MemoryProjectionDb>(trx, schema), schema, events),
  // What routeEvents reads (batch/routed-event.ts).
  streams: [SUBJECT_STREAM_PREFIX, ARTIFACT_STREAM_PREFIX],
};
