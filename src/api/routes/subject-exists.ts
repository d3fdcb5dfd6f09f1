// Reads of a subject that has no events answer 404 — which is also what a
// caller sees for another tenant's subject, since the tenant is part of the
// stream name: the answer is the same, so nothing is revealed.
import type { Ledger } from '../../commands/ledger.js';
import type { LoadedSubject } from '../../commands/subject/loaded-subject.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { comparePositions, type Position } from '../../infrastructure/event-store/port.js';
import { problemError } from '../problem.js';

const notFound = (subject: string) => problemError(404, 'subject_not_found', `subject ${subject} does not exist`, { field: 'subject' });

export async function requireSubject(ledger: Ledger, tenant: string, subject: string): Promise<LoadedSubject> {
  const loaded = await ledger.subjects.load(subjectStreamName(tenant, subject));
  if (loaded.revision < 0) throw notFound(subject);
  return loaded;
}

/**
 * What a read of these subjects must reflect (read your own writes): the
 * latest of their streams' last positions. The first subject is loaded as
 * requireSubject does (404 without events; an event that does not decode is
 * named); the others are shared namespaces the key may read, which may be
 * empty: their last event only is read.
 */
export async function subjectsHead(ledger: Ledger, tenant: string, subject: string, shared: readonly string[]): Promise<Position> {
  const [own, ...lasts] = await Promise.all([
    requireSubject(ledger, tenant, subject),
    ...shared.map(
      async (namespace) =>
        (await ledger.eventStore.readStream(subjectStreamName(tenant, namespace), { direction: 'backwards', maxCount: 1 }))[0]?.position,
    ),
  ]);
  return lasts.reduce<Position>((latest, last) => (last && comparePositions(last, latest) > 0 ? last : latest), own.position!);
}
