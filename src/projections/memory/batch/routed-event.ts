// The events a batch applies: decoded (upcast and validated) and routed by
// stream. Events of other streams, and events whose type does not belong to
// their stream, are passed over (they still move the checkpoint).
import type { ArtifactEvent } from '../../../domain/events/artifact-events.js';
import { isSubjectEvent } from '../../../domain/events/catalog.js';
import { decodeStoredEvent, EventDecodingError } from '../../../domain/events/decode.js';
import { parseArtifactStreamName, parseSubjectStreamName } from '../../../domain/events/stream-names.js';
import type { SubjectEvent } from '../../../domain/events/subject-events.js';
import { formatPosition, type StoredEvent } from '../../../infrastructure/event-store/port.js';
import { pointOf, type EventPoint } from './event-point.js';

export type RoutedEvent =
  | { readonly kind: 'subject'; readonly tenant: string; readonly subject: string; readonly event: SubjectEvent; readonly at: EventPoint }
  | { readonly kind: 'artifact'; readonly artifactId: string; readonly event: ArtifactEvent; readonly at: EventPoint };

/** A stored event that cannot be read: the projection stops rather than skip a fact. */
export class UndecodableEvent extends Error {
  override readonly name = 'UndecodableEvent';
  constructor(
    readonly stored: StoredEvent,
    readonly decodingError: EventDecodingError,
  ) {
    super(`${stored.stream}@${stored.streamRevision} (position ${formatPosition(stored.position)}): ${decodingError.message}`);
  }
}

export function routeEvents(events: readonly StoredEvent[]): RoutedEvent[] {
  const routed: RoutedEvent[] = [];
  for (const stored of events) {
    const subjectStream = parseSubjectStreamName(stored.stream);
    const artifactStream = subjectStream ? undefined : parseArtifactStreamName(stored.stream);
    if (!subjectStream && !artifactStream) continue;
    let event;
    try {
      event = decodeStoredEvent(stored);
    } catch (error) {
      if (error instanceof EventDecodingError) throw new UndecodableEvent(stored, error);
      throw error;
    }
    if (subjectStream && isSubjectEvent(event)) {
      routed.push({ kind: 'subject', ...subjectStream, event, at: pointOf(stored) });
    } else if (artifactStream && !isSubjectEvent(event)) {
      routed.push({ kind: 'artifact', artifactId: artifactStream.artifactId, event, at: pointOf(stored) });
    }
  }
  return routed;
}
