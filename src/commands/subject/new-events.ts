// Domain events to store events: ids from the command's idempotency key,
// metadata naming the command (causationId) that the retry window reads.
import { encodeEvent } from '../../domain/events/decode.js';
import type { SubjectEvent } from '../../domain/events/subject-events.js';
import type { NewEvent } from '../../infrastructure/event-store/port.js';
import { eventIdFor } from '../ids/command-ids.js';

export interface EventOrigin {
  readonly commandId: string;
  readonly actor?: string;
  readonly correlationId?: string;
  /** The request's hash (requestHashOf): event ids then tell a reused key from a retry. */
  readonly requestHash?: string;
}

export function toNewEvents(events: readonly SubjectEvent[], origin: EventOrigin): NewEvent[] {
  return events.map((event, index) => {
    const encoded = encodeEvent(event);
    return {
      id: eventIdFor(origin.commandId, index, origin.requestHash),
      type: encoded.type,
      data: encoded.data,
      metadata: {
        schemaVersion: encoded.schemaVersion,
        causationId: origin.commandId,
        ...(origin.correlationId ? { correlationId: origin.correlationId } : {}),
        ...(origin.actor ? { actor: origin.actor } : {}),
      },
    };
  });
}
