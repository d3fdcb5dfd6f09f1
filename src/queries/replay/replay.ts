// replay(subject, T): the belief at T computed from the subject's event
// stream alone — no projection table is read — so an auditor can check
// asOf against the log (DESIGN section 7, invariant 5).
import { decodeStoredEvent } from '../../domain/events/decode.js';
import { isSubjectEvent } from '../../domain/events/catalog.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { EventStore, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { KeyStore } from '../../infrastructure/key-store/port.js';
import { belief, byBeliefOrder, type BeliefAnswer } from '../belief.js';
import { openMemoryFields } from '../opened/memory-fields.js';
import { requireTimeQuery, type TimeQueryInput } from '../time-query.js';
import { believedVersions, foldVersions, type TimedEvent } from './version-fold.js';

const PAGE = 4096;

export async function replay(
  read: { readonly eventStore: EventStore; readonly keyStore: KeyStore },
  input: TimeQueryInput,
): Promise<BeliefAnswer> {
  const q = requireTimeQuery(input);
  const events = await eventsUntil(read.eventStore, subjectStreamName(q.tenant, q.subject), Date.parse(q.systemTime));
  const versions = believedVersions(foldVersions(events).values(), q.validTime);
  const ref = { tenant: q.tenant, subject: q.subject };
  const opened = await openMemoryFields(
    read.keyStore,
    ref,
    versions.map((v) => ({ memoryId: v.memoryId, value: v.value, content: v.content })),
  );
  const beliefs = versions
    .map(({ value: _value, content: _content, status, ...fields }) =>
      belief({ ...fields, status: status as 'active' | 'superseded' }, opened.get(fields.memoryId)!),
    )
    .sort(byBeliefOrder);
  return { tenant: q.tenant, subject: q.subject, systemTime: q.systemTime, validTime: q.validTime, from: 'event_stream', beliefs };
}

/** The stream's events committed at or before `until` (recordedAt never goes back within a stream). */
async function eventsUntil(store: EventStore, stream: string, until: number): Promise<TimedEvent[]> {
  const out: TimedEvent[] = [];
  for (let from = 0; ; from += PAGE) {
    const page: StoredEvent[] = await store.readStream(stream, { fromRevision: from, maxCount: PAGE });
    for (const stored of page) {
      if (stored.recordedAt.getTime() > until) return out;
      const event = decodeStoredEvent(stored);
      if (isSubjectEvent(event)) out.push({ id: stored.id, recordedAt: stored.recordedAt.toISOString(), event });
    }
    if (page.length < PAGE) return out;
  }
}
