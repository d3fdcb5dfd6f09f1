// A long-running projector: keep the active schema caught up, sleep until the
// log grows with events of the projection's streams, and stand by while
// another process owns the projection, ready to take over when it dies.
import { comparePositions, type EventStore, type Position } from '../../infrastructure/event-store/port.js';
import { applyUntil, DEFAULT_BATCH_SIZE, writePassedOver, type BatchProgress, type ResumePoint } from './apply-loop.js';
import { ProjectionSchemaRetired } from './errors.js';
import { isMissingSchema, stillServing } from './catch-up.js';
import { tryOwn } from './ownership.js';
import { projectionFilter, type ProjectionDefinition } from './projection.js';
import { schemaRow } from './registry.js';
import { dropLeftovers, ensureActive } from './schemas.js';
import type { ProjectionsKysely } from './schema-handles.js';

export interface FollowOptions {
  readonly signal: AbortSignal;
  readonly batchSize?: number;
  /** Longest sleep without news from the log, to notice swaps (default 5 s). */
  readonly idleMs?: number;
  /** How often a standby tries to take over (default 1 s). */
  readonly standbyMs?: number;
  readonly onBatch?: (progress: BatchProgress) => void | Promise<void>;
  readonly onStandby?: (schema: string) => void;
  /**
   * How long the projector may stay behind the log where it would only pass
   * over events it does not read (default 1 s). They do not wake it: a round
   * that finds them sleeps no longer than this, and the next passes over
   * them, reports the progress (onBatch) and writes the checkpoint row;
   * those that come while it sleeps wait for its next wakeup (idleMs at the
   * latest). Nothing it reads is missing meanwhile, and a reader waiting for
   * it learns so in one short read (nothingToApply).
   */
  readonly passedOverEveryMs?: number;
}

const PASSED_OVER_EVERY_MS = 1000;

const samePosition = (a: Position | undefined, b: Position | undefined) =>
  a === b || (a !== undefined && b !== undefined && comparePositions(a, b) === 0);

export async function followProjection(
  db: ProjectionsKysely,
  store: EventStore,
  definition: ProjectionDefinition,
  options: FollowOptions,
): Promise<void> {
  const { signal } = options;
  const idleMs = options.idleMs ?? 5000;
  const passedOverEveryMs = options.passedOverEveryMs ?? PASSED_OVER_EVERY_MS;
  while (!signal.aborted) {
    // Retired schemas a projector held through a swap (this one, possibly) go as soon as they are free.
    await dropLeftovers(db, definition.name);
    const active = await ensureActive(db, definition);
    const schema = active.schema_name;
    let owned;
    try {
      owned = await tryOwn(db, schema, async (conn) => {
        // Held under the schema's lock from round to round: the checkpoint row is read once, not every round.
        let resumeFrom: ResumePoint | undefined;
        let writtenAt = performance.now();
        while (!signal.aborted) {
          const result = await applyUntil(conn, store, definition, schema, {
            batchSize: options.batchSize ?? DEFAULT_BATCH_SIZE,
            signal,
            deferPassedOver: true,
            ...(resumeFrom ? { resumeFrom } : {}),
            ...(options.onBatch ? { onBatch: options.onBatch } : {}),
          });
          const moved = resumeFrom === undefined || !samePosition(result.checkpoint, resumeFrom.position);
          // With its passage deferred, only a committed batch wrote the checkpoint row in that run.
          if (result.applied > 0) writtenAt = performance.now();
          let written = result.written;
          if (!samePosition(written, result.checkpoint) && performance.now() - writtenAt >= passedOverEveryMs) {
            written = await writePassedOver(conn, schema, result.checkpoint!, result.eventsSeen);
            writtenAt = performance.now();
          }
          resumeFrom = { position: result.checkpoint, eventsSeen: result.eventsSeen, written };
          // A round that moved on has its retirement noticed by a write (each checks it) within passedOverEveryMs; an idle one asks.
          if (!moved && (await schemaRow(conn, schema))?.state !== 'active') return;
          // With a passed-over advance still to write, sleep no longer than until it is due.
          const due = samePosition(written, result.checkpoint) ? idleMs : passedOverEveryMs - (performance.now() - writtenAt);
          await logGrows(store, definition, result.checkpoint, signal, Math.max(1, Math.min(idleMs, due)), passedOverEveryMs);
        }
      });
    } catch (error) {
      if (error instanceof ProjectionSchemaRetired || (isMissingSchema(error) && !(await stillServing(db, schema)))) continue;
      throw error;
    }
    if (!owned.owned) {
      options.onStandby?.(schema);
      await sleep(options.standbyMs ?? 1000, signal);
    }
  }
}

/**
 * Resolves when an event of the projection's streams after `after` exists, after `timeoutMs`, or on abort. Events
 * of other streams (recall records, under recall traffic) do not wake it: the next round passes over them within
 * `passOverMs` of finding them here, and meanwhile a reader waiting for the head learns that they hold nothing for
 * it (nothingToApply).
 */
async function logGrows(
  store: EventStore,
  definition: ProjectionDefinition,
  after: Position | undefined,
  signal: AbortSignal,
  timeoutMs: number,
  passOverMs: number,
): Promise<void> {
  const filter = projectionFilter(definition);
  // Under load the log has grown already: one event says so without reading a page of events the batch reads again.
  const next = await store.readPage({ ...(after ? { after } : {}), maxCount: 1, ...(filter ? { filter } : {}) });
  if (next.events.length > 0) return;
  const from = next.examinedTo ?? after;
  const passedOver = from !== undefined && (after === undefined || comparePositions(from, after) > 0);
  const subscription = store.subscribeAll({ ...(from ? { after: from } : {}), ...(filter ? { filter } : {}) });
  const first = subscription[Symbol.asyncIterator]().next();
  first.catch(() => undefined);
  const idle = pause(passedOver ? Math.min(timeoutMs, passOverMs) : timeoutMs, signal);
  try {
    await Promise.race([first, idle.over]);
  } finally {
    // Ended now, not at its timeout: a wait the log cut short kept its timer and its listener on the service's signal for up to idleMs.
    idle.end();
    await subscription.close();
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return pause(ms, signal).over;
}

/** Resolves `over` after `ms`, on abort, or at `end()`, whichever comes first, leaving no timer or listener behind. */
function pause(ms: number, signal: AbortSignal): { readonly over: Promise<void>; readonly end: () => void } {
  let end = () => {};
  const over = new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
    end = done;
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
  });
  return { over, end };
}
