// A rebuild: a new schema (state `building`) filled from position 0 while
// the active one keeps serving (readers and incremental projectors go on
// using it), then swapped in one transaction, then the old schema dropped
// once no projector holds it (a projector still on it stops at its next
// batch, seeing it retired; the schema is dropped by the next run or rebuild).
// A rebuild that fails drops its building schema and says so (RebuildFailed).
import { comparePositions, formatPosition, type EventStore, type Position } from '../../infrastructure/event-store/port.js';
import { applyUntil, DEFAULT_BATCH_SIZE, type BatchProgress } from './apply-loop.js';
import { identityOf } from './definition-hash.js';
import { RebuildFailed, RebuildInProgress } from './errors.js';
import { whileOwning } from './ownership.js';
import type { ProjectionDefinition } from './projection.js';
import { activeSchema, schemaRow, schemasOf } from './registry.js';
import { activate, createSchema, dropLeftovers, dropSchema } from './schemas.js';
import type { ProjectionsKysely } from './schema-handles.js';

export interface RebuildOptions {
  readonly batchSize?: number;
  /** Build at least to here before the swap (a write's position the head may not show yet); default: the head. */
  readonly until?: Position;
  readonly signal?: AbortSignal;
  readonly onStart?: (start: { schema: string; head: string | null }) => void;
  readonly onBatch?: (progress: BatchProgress) => void | Promise<void>;
}

const UNTIL_WAIT_MS = 60_000;

export interface RebuildResult {
  readonly projection: string;
  readonly schema: string;
  readonly version: number;
  readonly definitionHash: string;
  readonly previous: { readonly schema: string; readonly version: number; readonly definitionHash: string } | null;
  readonly events: number;
  readonly checkpoint: string | null;
  readonly seconds: number;
  /** Schemas dropped after the swap (the previous one, unless a projector still held it, and leftovers). */
  readonly dropped: readonly string[];
}

export async function rebuildProjection(
  db: ProjectionsKysely,
  store: EventStore,
  definition: ProjectionDefinition,
  options: RebuildOptions = {},
): Promise<RebuildResult> {
  const started = performance.now();
  const identity = identityOf(definition);
  // Building schemas whose rebuild died are dropped; one still owned is a rebuild running now.
  await dropLeftovers(db, definition.name, ['building']);
  const running = (await schemasOf(db, definition.name)).find((row) => row.state === 'building');
  if (running) throw new RebuildInProgress(definition.name, running.schema_name);

  let building: string | undefined;
  let outcome;
  try {
    outcome = await db.connection().execute(async (conn) => {
      const row = await createSchema(conn, definition, 'building', true);
      const schema = (building = row.schema_name);
      return whileOwning(conn, schema, async () => {
        const head = await store.headPosition();
        options.onStart?.({ schema, head: head ? formatPosition(head) : null });
        const apply = (until: typeof head) =>
          applyUntil(conn, store, definition, schema, {
            batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
            ...(until ? { until, untilWaitMs: UNTIL_WAIT_MS } : {}),
            ...(options.signal ? { signal: options.signal } : {}),
            ...(options.onBatch ? { onBatch: options.onBatch } : {}),
          });
        let result = await apply(head);
        if (options.signal?.aborted) return { result, previous: undefined, aborted: true };
        // What arrived during the rebuild, so the swap hands over a schema close to the head.
        const later = await store.headPosition();
        const target = options.until && (!later || comparePositions(options.until, later) > 0) ? options.until : later;
        if (target) result = await apply(target);
        const previous = await activate(conn, definition.name, schema);
        return { result, previous, aborted: false };
      });
    });
  } catch (error) {
    // A failed rebuild leaves nothing behind: its building schema goes (the active one never stopped serving).
    if (building === undefined || !(await stillBuilding(db, building))) throw error;
    const dropped = await dropSchema(db, definition.name, building).catch(() => false);
    throw new RebuildFailed(definition.name, building, dropped, error);
  }
  const schema = building!;
  if (outcome.aborted) {
    await dropSchema(db, definition.name, schema);
    throw options.signal?.reason ?? new Error('rebuild aborted');
  }
  const dropped: string[] = [];
  if (outcome.previous && (await dropSchema(db, definition.name, outcome.previous.schema_name))) dropped.push(outcome.previous.schema_name);
  dropped.push(...(await dropLeftovers(db, definition.name, ['retired'])));
  const active = await activeSchema(db, definition.name);
  return {
    projection: definition.name,
    schema: active?.schema_name ?? schema,
    version: identity.version,
    definitionHash: identity.definitionHash,
    previous: outcome.previous
      ? { schema: outcome.previous.schema_name, version: outcome.previous.version, definitionHash: outcome.previous.definition_hash }
      : null,
    events: outcome.result.eventsSeen,
    checkpoint: outcome.result.checkpoint ? formatPosition(outcome.result.checkpoint) : null,
    seconds: (performance.now() - started) / 1000,
    dropped,
  };
}

async function stillBuilding(db: ProjectionsKysely, schema: string): Promise<boolean> {
  return (await schemaRow(db, schema).catch(() => undefined))?.state === 'building';
}
