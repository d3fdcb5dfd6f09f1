// One batch of the conflicts-and-trust read model: the subject events past
// each stream's last applied revision, applied in memory in log order, then
// written set-wise. Every rule reads only what the event says (and what is
// earlier in the batch), so batch boundaries change nothing.
import type { Kysely } from 'kysely';
import type { StoredEvent } from '../../../infrastructure/event-store/port.js';
import { unnestRows } from '../../runtime/bulk.js';
import type { ConflictsTrustDb } from '../tables.js';
import { ConflictsAndTrust } from './conflicts-and-trust.js';
import { flush } from './flush.js';
import { subjectStreamEvents, SubjectRevisions, type SubjectRevision, type SubjectStreamEvent } from './subject-events.js';

/** `db` is scoped to the read model's schema (withSchema). */
export async function applyConflictsTrustBatch(db: Kysely<ConflictsTrustDb>, events: readonly StoredEvent[]): Promise<void> {
  const routed = subjectStreamEvents(events);
  if (routed.length === 0) return;
  const revisions = new SubjectRevisions(await loadRevisions(db, routed));
  const records = new ConflictsAndTrust();
  for (const event of routed) if (revisions.admit(event)) applyOne(records, event);
  await flush(db, records, revisions);
}

function applyOne(records: ConflictsAndTrust, { tenant, subject, event, at }: SubjectStreamEvent): void {
  switch (event.type) {
    case 'ConflictDetected':
      return records.conflictDetected(at, tenant, subject, event.data);
    case 'ConflictResolved':
      return records.conflictResolved(at, tenant, subject, event.data);
    case 'TrustChanged':
      return records.trustChanged(at, tenant, subject, event.data);
    // The memory read model's events: nothing here.
    case 'MemoryRecorded':
    case 'MemoryCorroborated':
    case 'MemorySuperseded':
    case 'MemoryRetracted':
    case 'MemoryExpired':
    case 'MemoryArchived':
    case 'MemoryDemoted':
    case 'MemoryRestored':
    case 'MemoryForgotten':
    case 'TaintPolicyEscalated':
    case 'SubjectForgotten':
    case 'SummaryAliasSwitched':
    case 'DeletionReceiptIssued':
    case 'MemoryProposed': // proposals are held out of every read model until accepted
    case 'ProposalRejected':
    case 'ProposalExpired':
    case 'MemoryFeedbackGiven':
    case 'MemoryPromoted':
      return;
    default: {
      const never: never = event;
      throw new TypeError(`unknown subject event ${JSON.stringify(never)}`);
    }
  }
}

async function loadRevisions(db: Kysely<ConflictsTrustDb>, events: readonly SubjectStreamEvent[]): Promise<SubjectRevision[]> {
  const subjects = new Map(events.map((e) => [`${e.tenant}\u0000${e.subject}`, { tenant: e.tenant, subject: e.subject }]));
  const keys = unnestRows([...subjects.values()], { tenant: 'text', subject: 'text' }).as('k');
  const rows = await db
    .selectFrom('subject_revisions as r')
    .innerJoin(keys, (join) => join.onRef('r.tenant', '=', 'k.tenant').onRef('r.subject', '=', 'k.subject'))
    .select(['r.tenant', 'r.subject', 'r.stream_revision'])
    .execute();
  return rows.map((r) => ({ tenant: r.tenant, subject: r.subject, revision: Number(r.stream_revision) }));
}
