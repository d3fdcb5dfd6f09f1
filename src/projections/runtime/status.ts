// What `projections status` reports per projection: the code's version, the
// schemas in the registry with their checkpoints, the head of the log, and
// how many events the active schema lags behind it, and the events it could
// not apply (faults).
import { comparePositions, formatPosition, type EventStore, type LogFilter, type Position } from '../../infrastructure/event-store/port.js';
import { identityOf } from './definition-hash.js';
import { projectionFilter, type ProjectionDefinition } from './projection.js';
import { readCheckpoint, schemasOf } from './registry.js';
import { matches } from './schemas.js';
import { isMissingSchema } from './catch-up.js';
import { readFaults, type FaultSummary } from './faults.js';
import type { ProjectionsKysely } from './schema-handles.js';

export interface SchemaStatus {
  readonly schema: string;
  readonly state: string;
  readonly version: number;
  readonly definitionHash: string;
  /** Built by this code's definition (an active schema that is not must be rebuilt). */
  readonly matchesCode: boolean;
  readonly checkpoint: string | null;
  readonly eventsSeen: number;
  readonly updatedAt: string | null;
  /** Events of the streams the projection reads after the checkpoint, up to the head (counted up to `lagCountLimit`). */
  readonly lag: number;
  readonly lagIsLowerBound: boolean;
  /** Events the schema could not apply (passed over), with the first of them; null for a schema built before faults were kept. */
  readonly faults: FaultSummary | null;
}

export interface ProjectionStatus {
  readonly projection: string;
  readonly code: { readonly version: number; readonly definitionHash: string };
  readonly head: string | null;
  readonly active: SchemaStatus | null;
  readonly others: readonly SchemaStatus[];
}

export const LAG_COUNT_LIMIT = 100_000;

export async function projectionStatus(
  db: ProjectionsKysely,
  store: EventStore,
  definition: ProjectionDefinition,
): Promise<ProjectionStatus> {
  const identity = identityOf(definition);
  const head = await store.headPosition();
  const statuses: SchemaStatus[] = [];
  for (const row of await schemasOf(db, definition.name)) {
    let checkpoint;
    try {
      checkpoint = await readCheckpoint(db, row.schema_name);
    } catch (error) {
      if (isMissingSchema(error)) continue;
      throw error;
    }
    const lag = await countAfter(store, checkpoint.position, head, projectionFilter(definition));
    const faults = await readFaults(db, row.schema_name).catch((error: unknown) => {
      if (isMissingSchema(error)) return null;
      throw error;
    });
    statuses.push({
      schema: row.schema_name,
      state: row.state,
      version: row.version,
      definitionHash: row.definition_hash,
      matchesCode: matches(row, identity),
      checkpoint: checkpoint.position ? formatPosition(checkpoint.position) : null,
      eventsSeen: checkpoint.eventsSeen,
      updatedAt: checkpoint.position ? checkpoint.updatedAt.toISOString() : null,
      ...lag,
      faults,
    });
  }
  return {
    projection: definition.name,
    code: { version: identity.version, definitionHash: identity.definitionHash },
    head: head ? formatPosition(head) : null,
    active: statuses.find((s) => s.state === 'active') ?? null,
    others: statuses.filter((s) => s.state !== 'active'),
  };
}

/** Events after `after` up to `head` that `filter` matches (one over the limit tells an exact count at the limit from a lower bound). */
async function countAfter(
  store: EventStore,
  after: Position | undefined,
  head: Position | undefined,
  filter: LogFilter | undefined,
): Promise<{ lag: number; lagIsLowerBound: boolean }> {
  if (!head || (after && comparePositions(after, head) >= 0)) return { lag: 0, lagIsLowerBound: false };
  const counted = await store.countAll({
    ...(after ? { after } : {}),
    upTo: head,
    ...(filter ? { filter } : {}),
    limit: LAG_COUNT_LIMIT + 1,
  });
  return { lag: Math.min(counted, LAG_COUNT_LIMIT), lagIsLowerBound: counted > LAG_COUNT_LIMIT };
}
