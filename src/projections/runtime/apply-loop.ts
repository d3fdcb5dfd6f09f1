// The projector's loop on one schema it owns: read the log after the
// checkpoint a page at a time (the next page is read while the current one is
// applied), and apply each page with its checkpoint in one transaction. A
// crash anywhere rolls back the page in flight and nothing else: the next run
// starts after the last committed checkpoint, so nothing is lost and nothing
// is applied twice. An event that cannot be applied is recorded as a fault
// with the page and passed over (isolating-apply.ts): it never stops the loop.
import { comparePositions, type EventStore, type Position, type StoredEvent } from '../../infrastructure/event-store/port.js';
import { CatchUpTimeout, ProjectionSchemaRetired } from './errors.js';
import { recordFaults, type ProjectionFault } from './faults.js';
import { applyIsolating } from './isolating-apply.js';
import type { ProjectionDefinition } from './projection.js';
import { advanceCheckpoint, readCheckpoint, schemaRow, writeCheckpoint } from './registry.js';
import type { ProjectionsKysely } from './schema-handles.js';

export interface BatchProgress {
  readonly projection: string;
  readonly schema: string;
  /** Events applied by this call so far. */
  readonly applied: number;
  /** Events applied to the schema since it was created. */
  readonly eventsSeen: number;
  readonly checkpoint: Position;
  /** Events of this batch recorded as faults (not applied). */
  readonly faults: readonly ProjectionFault[];
}

export interface ApplyOptions {
  /** Events per page and transaction. */
  readonly batchSize: number;
  /** Stop once the checkpoint is at or past this position; without it, stop when a read finds nothing. */
  readonly until?: Position;
  /**
   * How long to wait for `until` to become readable when a read finds
   * nothing before it (a write's position can stay hidden while older
   * transactions run: see log-order.ts). Without it, an empty read ends the run.
   */
  readonly untilWaitMs?: number;
  /** Stop after about this many events (whole pages). */
  readonly maxEvents?: number;
  readonly signal?: AbortSignal;
  /** Called after each committed batch; the loop waits for it (a caller may throttle or pause a rebuild). */
  readonly onBatch?: (progress: BatchProgress) => void | Promise<void>;
}

export interface ApplyResult {
  readonly applied: number;
  readonly eventsSeen: number;
  readonly checkpoint: Position | undefined;
}

export const DEFAULT_BATCH_SIZE = 2000;
const UNTIL_POLL_MS = 20;

export async function applyUntil(
  conn: ProjectionsKysely,
  store: EventStore,
  definition: ProjectionDefinition,
  schema: string,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const start = await readCheckpoint(conn, schema);
  let checkpoint = start.position;
  let eventsSeen = start.eventsSeen;
  let applied = 0;
  const reached = (p: Position | undefined) => options.until !== undefined && p !== undefined && comparePositions(p, options.until) >= 0;
  const budget = (done: number) =>
    options.maxEvents === undefined ? options.batchSize : Math.min(options.batchSize, options.maxEvents - done);
  const finished = (p: Position | undefined, done: number) => reached(p) || budget(done) <= 0 || options.signal?.aborted === true;
  if (finished(checkpoint, applied)) return { applied, eventsSeen, checkpoint };

  const read = (after: Position | undefined, done: number): Promise<StoredEvent[]> => {
    const page = store.readAll({ ...(after ? { after } : {}), maxCount: budget(done) });
    page.catch(() => undefined); // awaited below; never an unhandled rejection while a batch is applied
    return page;
  };
  let next = read(checkpoint, applied);
  // A read that ran while our own batch transaction was open may miss events
  // committed meanwhile (the PostgreSQL store reads below the oldest running
  // transaction, ours included): an empty answer then proves nothing, and
  // the log is read once more with nothing open. (A short page is fine: what
  // it misses comes later in log order.)
  let overlapped = false;
  let waitingSince: number | undefined;
  for (;;) {
    const page = await next;
    if (page.length === 0) {
      if (options.signal?.aborted) break;
      if (overlapped) {
        overlapped = false;
        next = read(checkpoint, applied);
        continue;
      }
      if (options.untilWaitMs === undefined || reached(checkpoint)) break;
      waitingSince ??= performance.now();
      if (performance.now() - waitingSince > options.untilWaitMs) throw new CatchUpTimeout(definition.name, options.untilWaitMs);
      await new Promise((resolve) => setTimeout(resolve, UNTIL_POLL_MS));
      next = read(checkpoint, applied);
      continue;
    }
    waitingSince = undefined;
    const last = page[page.length - 1]!.position;
    const seen = eventsSeen + page.length;
    const done = applied + page.length;
    const more = !finished(last, done);
    if (more) next = read(last, done);
    overlapped = more;
    const faults = readsAny(definition, page)
      ? await conn.transaction().execute(async (trx) => {
          const row = await schemaRow(trx, schema);
          if (!row || row.state === 'retired') throw new ProjectionSchemaRetired(schema);
          const faulted = await applyIsolating(trx, definition, schema, page);
          await recordFaults(trx, schema, faulted);
          await writeCheckpoint(trx, schema, last, seen);
          return faulted;
        })
      : await advancePast(conn, schema, last, seen);
    checkpoint = last;
    eventsSeen = seen;
    applied = done;
    await options.onBatch?.({ projection: definition.name, schema, applied, eventsSeen, checkpoint, faults });
    if (!more) break;
  }
  return { applied, eventsSeen, checkpoint };
}

/** Whether the page holds an event of a stream the projection reads. */
function readsAny(definition: ProjectionDefinition, page: readonly StoredEvent[]): boolean {
  const { streams } = definition;
  return streams === undefined || page.some((event) => streams.some((prefix) => event.stream.startsWith(prefix)));
}

async function advancePast(conn: ProjectionsKysely, schema: string, last: Position, seen: number): Promise<ProjectionFault[]> {
  if (!(await advanceCheckpoint(conn, schema, last, seen))) throw new ProjectionSchemaRetired(schema);
  return [];
}
