// From database rows to the port's values.
import type { EventMetadata, NewEvent, Position, StoredEvent } from '../port.js';

export interface EventRow {
  commit_position: string;
  global_position: string;
  stream_name: string;
  stream_revision: string;
  event_id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
  recorded_at: Date;
}

/** A row an append wrote, as it hands it back (WRITTEN_COLUMNS). */
export type WrittenRow = Omit<EventRow, 'type' | 'data' | 'metadata'>;

/**
 * An appended event as readStream returns it, from the row's place and the
 * event as sent: sending its data back from the server (a recall's record
 * is tens of KB) and parsing it again cost both sides more than the insert.
 */
function writtenEvent(row: WrittenRow, sent: NewEvent): StoredEvent {
  return {
    id: row.event_id,
    type: sent.type,
    data: sent.data,
    metadata: sent.metadata,
    stream: row.stream_name,
    streamRevision: Number(row.stream_revision),
    position: toPosition(row.commit_position, row.global_position),
    recordedAt: row.recorded_at,
  };
}

/** The rows an append wrote by their event id. */
export const rowsById = (rows: readonly WrittenRow[]): ReadonlyMap<string, WrittenRow> => new Map(rows.map((row) => [row.event_id, row]));

/** The events sent, each at the row written under its id (undefined when one is missing). */
export function writtenEvents(byId: ReadonlyMap<string, WrittenRow>, sent: readonly NewEvent[]): StoredEvent[] | undefined {
  const written: StoredEvent[] = [];
  for (const event of sent) {
    // PostgreSQL writes a uuid in lower case.
    const row = byId.get(event.id.toLowerCase());
    if (!row) return undefined;
    written.push(writtenEvent(row, event));
  }
  return written;
}

export function toPosition(commit: string, prepare: string): Position {
  return { commit: BigInt(commit), prepare: BigInt(prepare) };
}

export function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: row.event_id,
    type: row.type,
    data: row.data,
    metadata: row.metadata,
    stream: row.stream_name,
    streamRevision: Number(row.stream_revision),
    position: toPosition(row.commit_position, row.global_position),
    recordedAt: row.recorded_at,
  };
}
