// One batch of the pending-candidates read model: a MemoryProposed adds its
// row; the write that accepts it (MemoryRecorded or MemoryCorroborated
// naming the proposal), its rejection, expiry or erasure, and the subject's
// erasure remove rows. Applied in log order in memory, then written
// set-wise in the batch's transaction (which also moves the checkpoint, so
// an event is never applied twice).
import type { Insertable, Kysely } from 'kysely';
import type { StoredEvent } from '../../infrastructure/event-store/port.js';
import { columnsOf, unnestRows, type ColumnTypes } from '../runtime/bulk.js';
import { subjectStreamEvents, type SubjectStreamEvent } from '../conflicts-trust/batch/subject-events.js';
import { subjectKey } from '../memory/batch/event-point.js';
import type { CandidatesDb, PendingCandidatesTable } from './tables.js';

type PendingRow = Insertable<PendingCandidatesTable>;
const ROW_TYPES: ColumnTypes<PendingRow> = {
  tenant: 'text',
  subject: 'text',
  memory_id: 'text',
  expires_at: 'timestamptz',
};
const KEY_TYPES = { tenant: 'text', subject: 'text', memory_id: 'text' } as const;

class PendingChanges {
  readonly added = new Map<string, PendingRow>();
  readonly removed = new Map<string, { tenant: string; subject: string; memory_id: string }>();
  readonly forgottenSubjects = new Map<string, { tenant: string; subject: string }>();

  add(tenant: string, subject: string, memoryId: string, expiresAt: string): void {
    this.added.set(`${subjectKey(tenant, subject)}\u0000${memoryId}`, { tenant, subject, memory_id: memoryId, expires_at: expiresAt });
  }

  remove(tenant: string, subject: string, memoryId: string): void {
    const id = `${subjectKey(tenant, subject)}\u0000${memoryId}`;
    this.added.delete(id);
    this.removed.set(id, { tenant, subject, memory_id: memoryId });
  }

  forgetSubject(tenant: string, subject: string): void {
    const prefix = `${subjectKey(tenant, subject)}\u0000`;
    for (const id of [...this.added.keys()]) if (id.startsWith(prefix)) this.added.delete(id);
    this.forgottenSubjects.set(subjectKey(tenant, subject), { tenant, subject });
  }
}

/** `db` is scoped to the read model's schema (withSchema). */
export async function applyCandidatesBatch(db: Kysely<CandidatesDb>, events: readonly StoredEvent[]): Promise<void> {
  const changes = new PendingChanges();
  for (const event of subjectStreamEvents(events)) applyOne(changes, event);
  if (changes.forgottenSubjects.size > 0) {
    const subjects = unnestRows([...changes.forgottenSubjects.values()], { tenant: 'text', subject: 'text' }).as('f');
    await db
      .deleteFrom('pending_candidates as p')
      .using(subjects)
      .whereRef('p.tenant', '=', 'f.tenant')
      .whereRef('p.subject', '=', 'f.subject')
      .execute();
  }
  if (changes.removed.size > 0) {
    const keys = unnestRows([...changes.removed.values()], KEY_TYPES).as('k');
    await db
      .deleteFrom('pending_candidates as p')
      .using(keys)
      .whereRef('p.tenant', '=', 'k.tenant')
      .whereRef('p.subject', '=', 'k.subject')
      .whereRef('p.memory_id', '=', 'k.memory_id')
      .execute();
  }
  if (changes.added.size > 0) {
    await db
      .insertInto('pending_candidates')
      .columns(columnsOf(ROW_TYPES))
      .expression(unnestRows([...changes.added.values()], ROW_TYPES))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

function applyOne(changes: PendingChanges, { tenant, subject, event }: SubjectStreamEvent): void {
  switch (event.type) {
    case 'MemoryProposed':
      return changes.add(tenant, subject, event.data.memoryId, event.data.expiresAt);
    case 'MemoryRecorded':
    case 'MemoryCorroborated':
      if (event.data.proposal !== undefined) changes.remove(tenant, subject, event.data.proposal);
      return;
    case 'ProposalRejected':
    case 'ProposalExpired':
    case 'MemoryForgotten': // the id may be a candidate's (erased by its memory id)
      return changes.remove(tenant, subject, event.data.memoryId);
    case 'SubjectForgotten':
      return changes.forgetSubject(tenant, subject);
    case 'MemorySuperseded':
    case 'MemoryRetracted':
    case 'MemoryExpired':
    case 'ConflictDetected':
    case 'ConflictResolved':
    case 'TrustChanged':
    case 'TaintPolicyEscalated':
    case 'SummaryAliasSwitched':
    case 'DeletionReceiptIssued':
    case 'MemoryDemoted':
    case 'MemoryRestored':
    case 'MemoryArchived':
    case 'MemoryFeedbackGiven': // a memory under review after harmful feedback does not expire: a reviewer decides
    case 'MemoryPromoted': // the candidate is the target's MemoryProposed
      return;
    default: {
      const never: never = event;
      throw new TypeError(`unknown subject event ${JSON.stringify(never)}`);
    }
  }
}
