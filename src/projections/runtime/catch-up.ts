// Catch a projection up to the head of the log as it is now: the query
// path's "read your own writes". Whoever owns the projection applies the
// events; when another process owns it (a follower), wait until its
// checkpoint passes the head — or take over if it dies meanwhile.
import { comparePositions, formatPosition, type EventStore, type Position } from '../../infrastructure/event-store/port.js';
import { applyUntil, DEFAULT_BATCH_SIZE, type BatchProgress } from './apply-loop.js';
import { CatchUpTimeout, ProjectionSchemaRetired } from './errors.js';
import { tryOwn } from './ownership.js';
import { projectionFilter, type ProjectionDefinition } from './projection.js';
import { readCheckpoint, schemaRow } from './registry.js';
import { ensureActive } from './schemas.js';
import type { ProjectionsKysely } from './schema-handles.js';

export interface CatchUpOptions {
  readonly batchSize?: number;
  /**
   * Catch up at least to here: the position of a write the caller made (an
   * append's result), which the head of the log may not show yet while older
   * transactions run. Default: the head of the log at the call.
   */
  readonly until?: Position;
  /** How long to wait for another owner to reach the head (default 60 s). */
  readonly waitMs?: number;
  readonly signal?: AbortSignal;
  readonly onBatch?: (progress: BatchProgress) => void | Promise<void>;
}

export interface CatchUpResult {
  readonly projection: string;
  readonly schema: string;
  readonly version: number;
  /** Events this process applied (0 when another projector did the work). */
  readonly applied: number;
  readonly eventsSeen: number;
  readonly checkpoint: string | null;
  readonly head: string | null;
  readonly appliedBy: 'this process' | 'another projector';
}

const POLL_MS = 50;

export async function catchUpProjection(
  db: ProjectionsKysely,
  store: EventStore,
  definition: ProjectionDefinition,
  options: CatchUpOptions = {},
): Promise<CatchUpResult> {
  const logHead = await store.headPosition();
  const head = options.until && (!logHead || comparePositions(options.until, logHead) > 0) ? options.until : logHead;
  const started = Date.now();
  const waitMs = options.waitMs ?? 60_000;
  const format = (p: Position | undefined) => (p ? formatPosition(p) : null);
  for (;;) {
    const active = await ensureActive(db, definition);
    const schema = active.schema_name;
    const base = { projection: definition.name, schema, version: active.version, head: format(head) };
    try {
      if (head === undefined) {
        const checkpoint = await readCheckpoint(db, schema);
        return {
          ...base,
          applied: 0,
          eventsSeen: checkpoint.eventsSeen,
          checkpoint: format(checkpoint.position),
          appliedBy: 'this process',
        };
      }
      const owned = await tryOwn(db, schema, (conn) =>
        applyUntil(conn, store, definition, schema, {
          batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
          until: head,
          untilWaitMs: waitMs,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onBatch ? { onBatch: options.onBatch } : {}),
        }),
      );
      if (owned.owned)
        return {
          ...base,
          applied: owned.value.applied,
          eventsSeen: owned.value.eventsSeen,
          checkpoint: format(owned.value.checkpoint),
          appliedBy: 'this process',
        };
      const checkpoint = await readCheckpoint(db, schema);
      const reached = checkpoint.position !== undefined && comparePositions(checkpoint.position, head) >= 0;
      // The owner may not have written its passage over events it does not read yet (follow.ts): up to the head, it has nothing to apply.
      if (reached || (await nothingToApply(store, definition, checkpoint.position, head))) {
        const position = reached ? checkpoint.position : head;
        return {
          ...base,
          applied: 0,
          eventsSeen: checkpoint.eventsSeen,
          checkpoint: format(position),
          appliedBy: 'another projector',
        };
      }
    } catch (error) {
      // A rebuild swapped the schema out under us: start again on the new one.
      if (!(error instanceof ProjectionSchemaRetired) && !(isMissingSchema(error) && !(await stillServing(db, schema)))) throw error;
    }
    if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
    if (Date.now() - started > waitMs) throw new CatchUpTimeout(definition.name, waitMs);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether no event of the projection's streams lies after `from` up to `head` (always false for a projection that reads every stream). */
export async function nothingToApply(
  store: EventStore,
  definition: ProjectionDefinition,
  from: Position | undefined,
  head: Position,
): Promise<boolean> {
  const filter = projectionFilter(definition);
  if (!filter) return false;
  const page = await store.readPage({ ...(from ? { after: from } : {}), maxCount: 1, filter });
  const first = page.events[0];
  if (first) return comparePositions(first.position, head) > 0;
  return page.examinedTo !== undefined && comparePositions(page.examinedTo, head) >= 0;
}

export async function stillServing(db: ProjectionsKysely, schema: string): Promise<boolean> {
  const row = await schemaRow(db, schema);
  return row !== undefined && row.state !== 'retired';
}

/** undefined_table / invalid_schema_name: the schema may have been dropped between lookup and read. */
export function isMissingSchema(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '42P01' || code === '3F000';
}
