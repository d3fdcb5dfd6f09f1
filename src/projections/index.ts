// The projections' public surface: the registered projections and what the
// CLI, the API and the query side call.
import type { EventStore } from '../infrastructure/event-store/port.js';
import { openProjectionDatabase } from './database.js';
import { candidatesProjection } from './candidates/definition.js';
import { conflictsTrustProjection } from './conflicts-trust/definition.js';
import { memoryProjection } from './memory/definition.js';
import { catchUpProjection, type CatchUpOptions, type CatchUpResult } from './runtime/catch-up.js';
import type { ProjectionDefinition } from './runtime/projection.js';

/** The read models, each its own schema, version, checkpoint and rebuild. A new one is one more definition here. */
export const PROJECTIONS: readonly ProjectionDefinition[] = [memoryProjection, conflictsTrustProjection, candidatesProjection];

export { memoryProjection } from './memory/definition.js';
export { conflictsTrustProjection } from './conflicts-trust/definition.js';
export { candidatesProjection } from './candidates/definition.js';
export type { CandidatesDb } from './candidates/tables.js';
export type { ConflictsTrustDb } from './conflicts-trust/tables.js';
export type { MemoryProjectionDb } from './memory/tables.js';
export { openProjectionDatabase, type ProjectionDatabase } from './database.js';
export { catchUpProjection, nothingToApply, type CatchUpOptions, type CatchUpResult } from './runtime/catch-up.js';
export { followProjection, type FollowOptions } from './runtime/follow.js';
export { rebuildProjection, type RebuildOptions, type RebuildResult } from './runtime/rebuild.js';
export { projectionStatus, type ProjectionStatus } from './runtime/status.js';
export { readActive, ProjectionNotBuilt } from './runtime/read-active.js';
export {
  ProjectionError,
  ProjectionRebuildRequired,
  RebuildInProgress,
  RebuildFailed,
  CatchUpTimeout,
  ProjectionSchemaRetired,
} from './runtime/errors.js';
import type { ProjectionsKysely } from './runtime/schema-handles.js';
export { projectionFilter, type ProjectionDefinition } from './runtime/projection.js';

/**
 * What a query calls first, so a user reads their own writes: every
 * projection caught up to the head of the log as it is at the call.
 * `database` is the projections' PostgreSQL URL or an open kysely instance.
 */
export async function catchUpProjections(
  eventStore: EventStore,
  database: string | ProjectionsKysely,
  options: CatchUpOptions = {},
): Promise<CatchUpResult[]> {
  const opened = typeof database === 'string' ? await openProjectionDatabase(database) : undefined;
  const db = opened?.db ?? (database as ProjectionsKysely);
  try {
    const results: CatchUpResult[] = [];
    for (const definition of PROJECTIONS) results.push(await catchUpProjection(db, eventStore, definition, options));
    return results;
  } finally {
    await opened?.close();
  }
}
