// Reads of a subject that has no events answer 404 — which is also what a
// caller sees for another tenant's subject, since the tenant is part of the
// stream name: the answer is the same, so nothing is revealed.
import type { Ledger } from '../../commands/ledger.js';
import type { LoadedSubject } from '../../commands/subject/loaded-subject.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { comparePositions, type EventStore, type Position } from '../../infrastructure/event-store/port.js';
import { problemError } from '../problem.js';

const notFound = (subject: string) => problemError(404, 'subject_not_found', `subject ${subject} does not exist`, { field: 'subject' });

export async function requireSubject(ledger: Ledger, tenant: string, subject: string): Promise<LoadedSubject> {
  const loaded = await ledger.subjects.load(subjectStreamName(tenant, subject));
  if (loaded.revision < 0) throw notFound(subject);
  return loaded;
}

/**
 * What a read of these subjects must reflect (read your own writes): the
 * latest of their streams' last positions, each read in one statement; 404
 * when the first subject has no events (the others are shared namespaces the
 * key may read, which may be empty).
 */
export async function subjectsHead(store: EventStore, tenant: string, subjects: readonly [string, ...string[]]): Promise<Position> {
  const lasts = await Promise.all(
    subjects.map(
      async (subject) => (await store.readStream(subjectStreamName(tenant, subject), { direction: 'backwards', maxCount: 1 }))[0],
    ),
  );
  if (!lasts[0]) throw notFound(subjects[0]);
  return lasts.reduce<Position>(
    (latest, last) => (last && comparePositions(last.position, latest) > 0 ? last.position : latest),
    lasts[0].position,
  );
}
