// Reads of a subject that has no events answer 404 — which is also what a
// caller sees for another tenant's subject, since the tenant is part of the
// stream name: the answer is the same, so nothing is revealed.
import type { Ledger } from '../../commands/ledger.js';
import type { LoadedSubject } from '../../commands/subject/loaded-subject.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { problemError } from '../problem.js';

export async function requireSubject(ledger: Ledger, tenant: string, subject: string): Promise<LoadedSubject> {
  const loaded = await ledger.subjects.load(subjectStreamName(tenant, subject));
  if (loaded.revision < 0) throw problemError(404, 'subject_not_found', `subject ${subject} does not exist`, { field: 'subject' });
  return loaded;
}
