// Candidates (issue 17): writes the gate held for review. A reviewer lists
// them, accepts one (the normal write decision, NEW / DUPLICATE / SUPERSEDES
// / CONFLICTS, on the sealed entry the proposal holds; the result names the
// proposal), or rejects one (ProposalRejected stays for audit). Pending ones
// past their expiry are expired by the sweep. Memories that harmful feedback
// put under review (issue 18) are listed with them (`review`): accepting one
// reinstates it (a reviewer's confirmation), rejecting one retracts it.
import { decodeStoredEvent } from '../../domain/events/decode.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { GateRecord } from '../../domain/events/write-gate-events.js';
import type { Promotion } from '../../domain/events/promotion-events.js';
import type { SubjectEventData } from '../../domain/events/subject-events.js';
import { reject, type Result } from '../../domain/result/result.js';
import { pendingProposal } from '../../domain/subject/proposals.js';
import type { ProposalState, SubjectState } from '../../domain/subject/state.js';
import type { Instant } from '../../domain/values/instant.js';
import { reinstateMemory } from '../feedback/give-feedback.js';
import { derivedId, newCommandId } from '../ids/command-ids.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { actorOf, recordResultOf, type RecordResult } from '../record.js';
import { retractMemory, runLifecycleCommand, type LifecycleResult } from '../lifecycle.js';
import { executeSubjectCommand, type SubjectEffect } from '../subject/execute.js';
import type { LoadedSubject } from '../subject/loaded-subject.js';
import { placedEvent } from '../../reads/streams/placed-event.js';
import { proposedPlace } from '../../reads/streams/subject-repository.js';

export interface CandidateView extends ProposalState {
  readonly gate?: GateRecord;
  /** A promotion from a private namespace: from where, by whom, why. */
  readonly promotion?: Promotion;
}

/** A recorded memory held back from recall by harmful feedback, pending a reviewer. */
export interface ReviewView {
  readonly memoryId: string;
  readonly kind: string;
  readonly key: string;
  readonly status: 'pending';
  readonly review: 'harmful_feedback';
  readonly harmfulCount: number;
}

const underReview = (state: SubjectState): ReviewView[] =>
  [...state.entries.values()]
    .filter((e) => e.status === 'active' && e.usage?.underReview === true)
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => ({
      memoryId: e.memoryId,
      kind: e.kind,
      key: e.key,
      status: 'pending',
      review: 'harmful_feedback',
      harmfulCount: e.usage!.harmfulCount,
    }));

const isUnderReview = (state: SubjectState, memoryId: string) => {
  const entry = state.entries.get(memoryId);
  return entry?.status === 'active' && entry.usage?.underReview === true;
};

/** The subject's candidates, oldest first, then the memories under review; `status` filters (default: pending). */
export async function listCandidates(
  ledger: Ledger,
  context: CommandContext,
  status = 'pending',
): Promise<Array<CandidateView | ReviewView>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const loaded = await ledger.subjects.load(stream);
  const proposals = [...loaded.state.proposals.values()].filter((p) => status === 'all' || p.status === status);
  const proposed = await proposedEvents(
    ledger,
    loaded,
    proposals.map((p) => p.memoryId),
  );
  const events = new Map(proposed.map((p) => [p.memoryId, p]));
  const views: Array<CandidateView | ReviewView> = proposals
    .sort((a, b) => (a.proposedAt < b.proposedAt ? -1 : a.proposedAt > b.proposedAt ? 1 : 0))
    .map((p) => {
      const event = events.get(p.memoryId);
      return { ...p, ...(event ? { gate: event.gate } : {}), ...(event?.promotion ? { promotion: event.promotion } : {}) };
    });
  return status === 'pending' || status === 'all' ? [...views, ...underReview(loaded.state)] : views;
}

/** How many candidates' events are read at once. */
const READS_AT_ONCE = 16;

/**
 * The candidates' MemoryProposed events, each read alone at the place the
 * subject's fold keeps for it (the whole stream was read for them, on every
 * list and accept); a memory id without a place was never proposed here.
 */
async function proposedEvents(
  ledger: Ledger,
  loaded: LoadedSubject,
  memoryIds: readonly string[],
): Promise<Array<SubjectEventData<'MemoryProposed'>>> {
  const out: Array<SubjectEventData<'MemoryProposed'>> = [];
  for (let i = 0; i < memoryIds.length; i += READS_AT_ONCE) {
    const read = memoryIds.slice(i, i + READS_AT_ONCE).map((id) => placedEvent(ledger.eventStore, loaded, proposedPlace(id)));
    for (const stored of await Promise.all(read)) {
      const event = stored && decodeStoredEvent(stored);
      if (event?.type === 'MemoryProposed') out.push(event.data);
    }
  }
  return out;
}

/** Accepting runs the normal write decision on the proposal's sealed entry, under the id it was proposed with; a memory under review is reinstated. */
export async function acceptCandidate(
  ledger: Ledger,
  context: CommandContext,
  memoryId: string,
): Promise<Result<RecordResult | LifecycleResult>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const loaded = await ledger.subjects.load(stream);
  if (isUnderReview(loaded.state, memoryId)) return reinstateMemory(ledger, context, memoryId);
  const pending = pendingProposal(loaded.state, memoryId, 'memoryId');
  if ('ok' in pending && !pending.ok) return pending;
  const [proposed] = await proposedEvents(ledger, loaded, [memoryId]);
  if (!proposed) return reject('proposal_not_found', `candidate ${memoryId} does not exist`, 'memoryId');
  const commandId = context.idempotencyKey ?? newCommandId();
  const outcome = await executeSubjectCommand(
    ledger,
    { stream, commandId, request: { operation: 'accept_candidate', memoryId }, ...actorOf(context) },
    (_loaded, now) => ({
      type: 'RecordMemory',
      memoryId,
      conflictId: derivedId('c', commandId, 'conflict'),
      entry: proposed.entry,
      gate: { ...proposed.gate, reasons: [...proposed.gate.reasons, 'accepted_by_reviewer'].slice(0, 220) },
      proposal: memoryId,
      ...(proposed.promotion ? { promotedFrom: proposed.promotion.from } : {}),
      now,
    }),
  );
  return outcome.ok ? { ok: true, result: recordResultOf(outcome.result) } : outcome;
}

/** A ProposalRejected (kept for audit), answered like the other lifecycle commands (HTTP and CLI alike); a memory under review is retracted. */
export async function rejectCandidate(
  ledger: Ledger,
  context: CommandContext,
  memoryId: string,
  reason?: string,
): Promise<Result<LifecycleResult>> {
  const loaded = await ledger.subjects.load(subjectStreamName(context.tenant, context.subject));
  if (isUnderReview(loaded.state, memoryId))
    return retractMemory(ledger, context, memoryId, reason ?? 'reported harmful; a reviewer upheld it');
  return runLifecycleCommand(ledger, context, { type: 'RejectProposal', memoryId, ...(reason !== undefined ? { reason } : {}) });
}

/** The sweep for one subject: pending candidates past their expiry at `at` (default: the clock) become ProposalExpired. */
export async function expireCandidates(ledger: Ledger, context: CommandContext, at?: Instant): Promise<Result<SubjectEffect>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  return executeSubjectCommand(ledger, { stream, commandId: newCommandId(), ...actorOf(context) }, (_loaded, now) => ({
    type: 'ExpireProposals',
    now: at ?? now,
  }));
}
