// The events a batch applies: decoded (upcast and validated) and routed by
// stream. Events of other streams, and events whose type does not belong to
// their stream, are passed over (they still move the checkpoint).
import type { ArtifactEvent } from '../../../domain/events/artifact-events.js';
import { isArtifactEvent, isSubjectEvent } from '../../../domain/events/catalog.js';
import { decodeStoredEvent } from '../../../domain/events/decode.js';
import { parseArtifactStreamName, parseSubjectStreamName } from '../../../domain/events/stream-names.js';
import type { SubjectEvent } from '../../../domain/events/subject-events.js';
import type { StoredEvent } from '../../../infrastructure/event-store/port.js';
import { pointOf, type EventPoint } from './event-point.js';

export type RoutedEvent =
  | { readonly kind: 'subject'; readonly tenant: string; readonly subject: string; readonly event: SubjectEvent; readonly at: EventPoint }
  | { readonly kind: 'artifact'; readonly artifactId: string; readonly event: ArtifactEvent; readonly at: EventPoint };

export function routeEvents(events: readonly StoredEvent[]): RoutedEvent[] {
  const routed: RoutedEvent[] = [];
  for (const stored of events) {
    const subjectStream = parseSubjectStreamName(stored.stream);
    const artifactStream = subjectStream ? undefined : parseArtifactStreamName(stored.stream);
    if (!subjectStream && !artifactStream) continue;
    // One that does not decode throws UndecodableStoredEvent, naming it: the runtime records it as a fault (runtime/faults.ts).
    const event = decodeStoredEvent(stored);
    if (subjectStream && isSubjectEvent(event)) {
      routed.push({ kind: 'subject', ...subjectStream, event, at: pointOf(stored) });
    } else if (artifactStream && isArtifactEvent(event)) {
      routed.push({ kind: 'artifact', artifactId: artifactStream.artifactId, event, at: pointOf(stored) });
    }
  }
  return routed;
}
