// The projector's loop on one schema it owns: read the log after the
// checkpoint a page at a time (the next page is read while the current one is
// applied), only the streams the projection reads, and apply each page with
// its checkpoint in one transaction. A crash anywhere rolls back the page in
// flight and nothing else: the next run starts after the last committed
// checkpoint, so nothing is lost and nothing is applied twice. An event that
// cannot be applied is recorded as a fault with the page and passed over
// (isolating-apply.ts): it never stops the loop. Events of other streams are
// never fetched: the checkpoint moves past them with the next batch, or in a
// statement of its own (which a follower defers: passedOverEveryMs).
import { comparePositions, type EventStore, type ExaminedPage, type Position } from '../../infrastructure/event-store/port.js';
import { CatchUpTimeout, ProjectionSchemaRetired } from './errors.js';
import { recordFaults, type ProjectionFault } from './faults.js';
import { applyIsolating } from './isolating-apply.js';
import { projectionFilter, type ProjectionDefinition } from './projection.js';
import { advanceCheckpoint, readCheckpoint, schemaRow, writeCheckpoint } from './registry.js';
import type { ProjectionsKysely } from './schema-handles.js';

export interface BatchProgress {
  readonly projection: string;
  readonly schema: string;
  /** Events applied by this call so far. */
  readonly applied: number;
  /** Events applied to the schema since it was created. */
  readonly eventsSeen: number;
  /** How far the log has been applied: events the projection does not read up to here are passed over. */
  readonly checkpoint: Position;
  /** Events of this batch recorded as faults (not applied). */
  readonly faults: readonly ProjectionFault[];
}

/** Where a run starts: the checkpoint row, or where the previous run of the same holder left it. */
export interface ResumePoint {
  readonly position: Position | undefined;
  readonly eventsSeen: number;
  /** What the checkpoint row says (behind `position` while a passed-over advance is not written yet). */
  readonly written: Position | undefined;
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
  /** Called after each committed batch, and as the run passes over events it does not read; the loop waits for it. */
  readonly onBatch?: (progress: BatchProgress) => void | Promise<void>;
  /**
   * Where the last run on this schema left it, instead of the checkpoint row:
   * for a caller that holds the schema (its advisory lock) between runs, so no
   * one else moved the checkpoint meanwhile.
   */
  readonly resumeFrom?: ResumePoint;
  /**
   * Leave the checkpoint row behind when a run only passes over events the
   * projection does not read: the caller writes it (writePassedOver) when it
   * sees fit. A follower under recall traffic would otherwise write it after
   * every few recalls, three times over.
   */
  readonly deferPassedOver?: boolean;
}

export interface ApplyResult {
  readonly applied: number;
  readonly eventsSeen: number;
  /** How far the run took the projection (the checkpoint row may say less: deferPassedOver). */
  readonly checkpoint: Position | undefined;
  /** What the checkpoint row says. */
  readonly written: Position | undefined;
}

export const DEFAULT_BATCH_SIZE = 2000;
const UNTIL_POLL_MS = 20;

const isAfter = (p: Position | undefined, than: Position | undefined): p is Position =>
  p !== undefined && (than === undefined || comparePositions(p, than) > 0);

export async function applyUntil(
  conn: ProjectionsKysely,
  store: EventStore,
  definition: ProjectionDefinition,
  schema: string,
  options: ApplyOptions,
): Promise<ApplyResult> {
  const start = options.resumeFrom ?? (await readCheckpoint(conn, schema));
  let checkpoint = start.position;
  let written = 'written' in start ? start.written : start.position;
  let eventsSeen = start.eventsSeen;
  let applied = 0;
  const reached = (p: Position | undefined) => options.until !== undefined && p !== undefined && comparePositions(p, options.until) >= 0;
  const budget = (done: number) =>
    options.maxEvents === undefined ? options.batchSize : Math.min(options.batchSize, options.maxEvents - done);
  const finished = (p: Position | undefined, done: number) => reached(p) || budget(done) <= 0 || options.signal?.aborted === true;
  const result = () => ({ applied, eventsSeen, checkpoint, written });
  if (finished(checkpoint, applied)) return result();

  const filter = projectionFilter(definition);
  const read = (after: Position | undefined, done: number): Promise<ExaminedPage> => {
    const page = store.readPage({ ...(after ? { after } : {}), maxCount: budget(done), ...(filter ? { filter } : {}) });
    page.catch(() => undefined); // awaited below; never an unhandled rejection while a batch is applied
    return page;
  };
  const report = (faults: readonly ProjectionFault[]) =>
    options.onBatch?.({ projection: definition.name, schema, applied, eventsSeen, checkpoint: checkpoint!, faults });
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
    const examined = isAfter(page.examinedTo, checkpoint) ? page.examinedTo : undefined;
    if (page.events.length === 0 && examined) {
      // Only events of streams it does not read lie up to `examined`.
      checkpoint = examined;
      if (!options.deferPassedOver) written = await writePassedOver(conn, schema, checkpoint, eventsSeen);
      await report([]);
    }
    if (page.events.length === 0) {
      if (options.signal?.aborted || reached(checkpoint)) break;
      if (overlapped) {
        overlapped = false;
        next = read(checkpoint, applied);
        continue;
      }
      if (options.untilWaitMs === undefined) break;
      waitingSince ??= performance.now();
      if (performance.now() - waitingSince > options.untilWaitMs) throw new CatchUpTimeout(definition.name, options.untilWaitMs);
      await new Promise((resolve) => setTimeout(resolve, UNTIL_POLL_MS));
      next = read(checkpoint, applied);
      continue;
    }
    waitingSince = undefined;
    const last = examined!;
    const seen = eventsSeen + page.events.length;
    const done = applied + page.events.length;
    const more = !finished(last, done);
    if (more) next = read(last, done);
    overlapped = more;
    const faults = await conn.transaction().execute(async (trx) => {
      const row = await schemaRow(trx, schema);
      if (!row || row.state === 'retired') throw new ProjectionSchemaRetired(schema);
      const faulted = await applyIsolating(trx, definition, schema, page.events);
      await recordFaults(trx, schema, faulted);
      await writeCheckpoint(trx, schema, last, seen);
      return faulted;
    });
    checkpoint = last;
    written = last;
    eventsSeen = seen;
    applied = done;
    await report(faults);
    if (!more) break;
  }
  return result();
}

/** The checkpoint row moved to `position` past events the projection does not read; ProjectionSchemaRetired when the schema was retired meanwhile. */
export async function writePassedOver(conn: ProjectionsKysely, schema: string, position: Position, eventsSeen: number): Promise<Position> {
  if (!(await advanceCheckpoint(conn, schema, position, eventsSeen))) throw new ProjectionSchemaRetired(schema);
  return position;
}
