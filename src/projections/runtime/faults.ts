// Projection faults: an event of the immutable log that a projection cannot
// apply (it does not decode, or the database refuses what it would write)
// is recorded here, in the projection's own schema, and passed over; every
// other event goes on and the checkpoint advances. A fault is part of what
// the schema was built from, like its rows: a rebuild meets the same event
// and records the same fault (only log-derived columns, so incremental ==
// rebuild), and code that learns to apply the event clears it by rebuilding.
// Reads about the faulted stream refuse to answer from the incomplete rows
// (src/queries/projection-faulted.ts).
import pg from 'pg';
import { sql } from 'kysely';
import { formatPosition, parsePosition, type StoredEvent } from '../../infrastructure/event-store/port.js';
import { UndecodableStoredEvent } from '../../domain/events/decode.js';
import { columnsOf, unnestRows, type ColumnTypes } from './bulk.js';
import { ProjectionError } from './errors.js';
import { inSchema, type ProjectionsKysely } from './schema-handles.js';

/** One row per faulted event; nothing of the event's content, only where it is and why it failed. */
export interface FaultsTable {
  commit: string;
  prepare: string;
  event_id: string;
  stream: string;
  stream_revision: string;
  event_type: string;
  /** The store's commit time of the event (ISO text written, Date read). */
  recorded_at: Date | string;
  /** undecodable_event, or database_refused:<SQLSTATE>, or the error's name. */
  code: string;
  message: string;
}

export type FaultsDb = {
  faults: FaultsTable;
};

export interface ProjectionFault {
  readonly position: string;
  readonly eventId: string;
  readonly stream: string;
  readonly streamRevision: number;
  readonly eventType: string;
  readonly recordedAt: string;
  readonly code: string;
  readonly message: string;
}

const MAX_MESSAGE = 500;

const FAULT_TYPES: ColumnTypes<FaultsTable> = {
  commit: 'int8',
  prepare: 'int8',
  event_id: 'uuid',
  stream: 'text',
  stream_revision: 'int8',
  event_type: 'text',
  recorded_at: 'timestamptz',
  code: 'text',
  message: 'text',
};

export function createFaultsTable(db: ProjectionsKysely, schema: string) {
  return db.schema
    .withSchema(schema)
    .createTable('faults')
    .addColumn('commit', 'bigint', (c) => c.notNull())
    .addColumn('prepare', 'bigint', (c) => c.notNull())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('stream', 'text', (c) => c.notNull())
    .addColumn('stream_revision', 'bigint', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
    .addColumn('code', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('faults_pkey', ['commit', 'prepare']);
}

export function createFaultsIndex(db: ProjectionsKysely, schema: string) {
  return db.schema.withSchema(schema).createIndex('faults_by_stream').on('faults').columns(['stream', 'stream_revision']);
}

/** Errors that are not the event's doing: the batch fails and is tried again later, nothing is recorded. */
const TRANSIENT_SQLSTATE_CLASSES = new Set(['08', '25', '40', '53', '55', '57', '58', 'XX', '3D', '3F', '42']);

/**
 * Whether an error thrown while applying events may be the events' own
 * doing: an event that does not decode, data the database refuses (classes
 * 21, 22, 23 and 54 and the like), or a rule that cannot handle what it met.
 * Connection loss, serialization failures, a dropped schema and the runtime's
 * own errors are not: the batch is retried. (A wrong guess costs little: the
 * isolating apply only records a fault for an event that fails on its own.)
 */
export function mayBeEventFault(error: unknown): boolean {
  if (error instanceof ProjectionError) return false;
  if (error instanceof pg.DatabaseError) return !TRANSIENT_SQLSTATE_CLASSES.has((error.code ?? 'XX').slice(0, 2));
  const e = error as { errno?: unknown; syscall?: unknown; name?: unknown } | null;
  if (e === null || typeof e !== 'object') return true;
  if (e.errno !== undefined || e.syscall !== undefined || e.name === 'AbortError') return false;
  return true;
}

export function faultOf(event: StoredEvent, error: unknown): ProjectionFault {
  const why = describe(error);
  return {
    position: formatPosition(event.position),
    eventId: event.id,
    stream: event.stream,
    streamRevision: event.streamRevision,
    eventType: event.type,
    recordedAt: event.recordedAt.toISOString(),
    code: why.code,
    message: why.message.slice(0, MAX_MESSAGE),
  };
}

function describe(error: unknown): { code: string; message: string } {
  const e = error as { name?: unknown; message?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0]! : String(error);
  if (error instanceof UndecodableStoredEvent) return { code: error.code, message };
  if (error instanceof pg.DatabaseError) return { code: `database_refused:${error.code ?? 'unknown'}`, message };
  return { code: typeof e?.name === 'string' ? e.name : 'error', message };
}

export async function recordFaults(trx: ProjectionsKysely, schema: string, faults: readonly ProjectionFault[]): Promise<void> {
  if (faults.length === 0) return;
  const rows: FaultsTable[] = faults.map((f) => {
    const { commit, prepare } = parsePosition(f.position);
    return {
      commit: commit.toString(),
      prepare: prepare.toString(),
      event_id: f.eventId,
      stream: f.stream,
      stream_revision: String(f.streamRevision),
      event_type: f.eventType,
      recorded_at: f.recordedAt,
      code: f.code,
      message: f.message,
    };
  });
  // Applying a batch a second time meets the same faults: already recorded.
  await inSchema<FaultsDb>(trx, schema)
    .insertInto('faults')
    .columns(columnsOf(FAULT_TYPES))
    .expression(unnestRows(rows, FAULT_TYPES))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export interface FaultSummary {
  readonly count: number;
  /** The first faults in log order (up to the limit asked for). */
  readonly first: readonly ProjectionFault[];
}

export async function readFaults(db: ProjectionsKysely, schema: string, limit = 20): Promise<FaultSummary> {
  const faults = inSchema<FaultsDb>(db, schema).selectFrom('faults');
  const [{ count }, rows] = await Promise.all([
    faults.select(sql<number>`count(*)::int`.as('count')).executeTakeFirstOrThrow(),
    faults.selectAll().orderBy('commit').orderBy('prepare').limit(limit).execute(),
  ]);
  return { count, first: rows.map(faultFromRow) };
}

export function faultFromRow(row: FaultsTable): ProjectionFault {
  return {
    position: `${row.commit}/${row.prepare}`,
    eventId: row.event_id,
    stream: row.stream,
    streamRevision: Number(row.stream_revision),
    eventType: row.event_type,
    recordedAt: new Date(row.recorded_at).toISOString(),
    code: row.code,
    message: row.message,
  };
}
