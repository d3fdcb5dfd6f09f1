// From database rows to the port's values.
import type { EventMetadata, Position, StoredEvent } from '../port.js';

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
