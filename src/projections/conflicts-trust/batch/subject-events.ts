// The subject-stream events of a batch, decoded, and the guard that applies
// each one once: a subject event is applied only when its revision is past
// the last one this read model applied for the stream (subject_revisions).
// Events of other streams are passed over (they still move the checkpoint).
import { isSubjectEvent } from '../../../domain/events/catalog.js';
import { decodeStoredEvent } from '../../../domain/events/decode.js';
import { parseSubjectStreamName } from '../../../domain/events/stream-names.js';
import type { SubjectEvent } from '../../../domain/events/subject-events.js';
import type { StoredEvent } from '../../../infrastructure/event-store/port.js';
import { pointOf, subjectKey, type EventPoint } from '../../memory/batch/event-point.js';

export interface SubjectStreamEvent {
  readonly tenant: string;
  readonly subject: string;
  readonly event: SubjectEvent;
  readonly at: EventPoint;
}

export function subjectStreamEvents(events: readonly StoredEvent[]): SubjectStreamEvent[] {
  const routed: SubjectStreamEvent[] = [];
  for (const stored of events) {
    const stream = parseSubjectStreamName(stored.stream);
    if (!stream) continue;
    // One that does not decode throws UndecodableStoredEvent, naming it: the runtime records it as a fault.
    const event = decodeStoredEvent(stored);
    if (isSubjectEvent(event)) routed.push({ ...stream, event, at: pointOf(stored) });
  }
  return routed;
}

export interface SubjectRevision {
  readonly tenant: string;
  readonly subject: string;
  revision: number;
}

export class SubjectRevisions {
  readonly #revisions = new Map<string, SubjectRevision>();
  readonly #changed = new Set<SubjectRevision>();

  constructor(stored: readonly SubjectRevision[]) {
    for (const r of stored) this.#revisions.set(subjectKey(r.tenant, r.subject), r);
  }

  /** True (and the stream's revision moved to it) when the event is new to this read model. */
  admit({ tenant, subject, at }: SubjectStreamEvent): boolean {
    const key = subjectKey(tenant, subject);
    const known = this.#revisions.get(key);
    if (known && at.revision <= known.revision) return false;
    const next = known ?? { tenant, subject, revision: -1 };
    next.revision = at.revision;
    this.#revisions.set(key, next);
    this.#changed.add(next);
    return true;
  }

  changed(): SubjectRevision[] {
    return [...this.#changed];
  }
}
