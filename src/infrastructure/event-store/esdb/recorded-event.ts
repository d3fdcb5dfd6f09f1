// EventStoreDB's recorded events as the port's StoredEvent.
import type { RecordedEvent } from '@eventstore/db-client';
import { z } from 'zod';
import type { EventMetadata, Position, StoredEvent } from '../port.js';
import { recordedAtOf } from './recorded-at.js';

/** A stored event this adapter cannot hand out as a StoredEvent (written by something else, or by an older server). */
export class UnreadableStoredEvent extends Error {
  override readonly name = 'UnreadableStoredEvent';
  constructor(
    readonly stream: string,
    readonly eventId: string,
    readonly field: string,
    detail: string,
  ) {
    super(`event ${eventId} in ${stream}: ${field}: ${detail}`);
  }
}

const metadataSchema = z.object({
  correlationId: z.string().optional(),
  causationId: z.string().optional(),
  actor: z.string().optional(),
  schemaVersion: z.number().int().nonnegative(),
});

const NO_POSITION = 2n ** 64n - 1n;

export function toStoredEvent(event: RecordedEvent): StoredEvent {
  const unreadable = (field: string, detail: string) => new UnreadableStoredEvent(event.streamId, event.id, field, detail);
  if (!event.isJson) throw unreadable('data', 'not a JSON event');
  const metadata = metadataSchema.safeParse(event.metadata);
  if (!metadata.success) {
    const issue = metadata.error.issues[0]!;
    throw unreadable(['metadata', ...issue.path.map(String)].join('.'), issue.message);
  }
  // Servers before 22.6 send no log position with stream reads (the client
  // then shows none, or the "no position" marker 2^64-1).
  if (!event.position || event.position.commit === NO_POSITION)
    throw unreadable('position', 'the server sent no log position (EventStoreDB 22.6 or later is required)');
  const position: Position = { commit: event.position.commit, prepare: event.position.prepare };
  return {
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: metadata.data satisfies EventMetadata,
    stream: event.streamId,
    streamRevision: Number(event.revision),
    position,
    // The adapter's own stamp (recorded-at.ts), else the server's (the client cuts its 100 ns ticks to milliseconds).
    recordedAt: recordedAtOf(event.metadata) ?? new Date(Math.trunc(event.created.getTime())),
  };
}
