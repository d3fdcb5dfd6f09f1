// Domain events to store events: ids by the stream kind's rule, metadata
// naming the command (causationId) that the retry window reads.
import { randomUUID } from 'node:crypto';
import type { DomainEvent } from '../../domain/events/catalog.js';
import { encodeEvent } from '../../domain/events/decode.js';
import type { NewEvent } from '../../infrastructure/event-store/port.js';
import { eventIdFor } from '../ids/command-ids.js';
import type { EventIds } from '../../reads/streams/stream-kind.js';

export interface EventOrigin {
  readonly stream: string;
  readonly commandId: string;
  readonly actor?: string;
  readonly correlationId?: string;
  /** The request's hash (requestHashOf): event ids then tell a reused key from a retry. */
  readonly requestHash?: string;
}

export function toNewEvents(events: readonly DomainEvent[], origin: EventOrigin, ids: EventIds = 'derived'): NewEvent[] {
  return events.map((event, index) => {
    const encoded = encodeEvent(event);
    return {
      id: ids === 'derived' ? eventIdFor(origin.stream, origin.commandId, index, origin.requestHash) : randomUUID(),
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
