// Candidates (issue 17): writes the gate held for review. A reviewer lists
// them, accepts one (the normal write decision, NEW / DUPLICATE / SUPERSEDES
// / CONFLICTS, on the sealed entry the proposal holds; the result names the
// proposal), or rejects one (ProposalRejected stays for audit). Pending ones
// past their expiry are expired by the sweep.
import type { SealedEntry } from '../../domain/entry/sealed-entry.js';
import { decodeStoredEvent } from '../../domain/events/decode.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import type { GateRecord } from '../../domain/events/write-gate-events.js';
import { reject, type Result } from '../../domain/result/result.js';
import { pendingProposal } from '../../domain/subject/proposals.js';
import type { ProposalState } from '../../domain/subject/state.js';
import type { Instant } from '../../domain/values/instant.js';
import { derivedId, newCommandId } from '../ids/command-ids.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { actorOf, recordResultOf, type RecordResult } from '../record.js';
import { runLifecycleCommand, type LifecycleResult } from '../lifecycle.js';
import { executeSubjectCommand, type SubjectEffect } from '../subject/execute.js';

export interface CandidateView extends ProposalState {
  readonly gate?: GateRecord;
}

/** The subject's candidates, oldest first; `status` filters (default: pending). */
export async function listCandidates(ledger: Ledger, context: CommandContext, status = 'pending'): Promise<CandidateView[]> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const loaded = await ledger.subjects.load(stream);
  const proposals = [...loaded.state.proposals.values()].filter((p) => status === 'all' || p.status === status);
  const gates = new Map((await proposedEvents(ledger, stream)).map((p) => [p.memoryId, p.gate]));
  return proposals
    .sort((a, b) => (a.proposedAt < b.proposedAt ? -1 : a.proposedAt > b.proposedAt ? 1 : 0))
    .map((p) => ({ ...p, ...(gates.has(p.memoryId) ? { gate: gates.get(p.memoryId)! } : {}) }));
}

async function proposedEvents(ledger: Ledger, stream: string): Promise<Array<{ memoryId: string; entry: SealedEntry; gate: GateRecord }>> {
  const out: Array<{ memoryId: string; entry: SealedEntry; gate: GateRecord }> = [];
  for (const stored of await ledger.eventStore.readStream(stream, { fromRevision: 0 })) {
    if (stored.type !== 'MemoryProposed') continue;
    const event = decodeStoredEvent(stored);
    if (event.type === 'MemoryProposed') out.push(event.data);
  }
  return out;
}

/** Accepting runs the normal write decision on the proposal's sealed entry, under the id it was proposed with. */
export async function acceptCandidate(ledger: Ledger, context: CommandContext, memoryId: string): Promise<Result<RecordResult>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  const loaded = await ledger.subjects.load(stream);
  const pending = pendingProposal(loaded.state, memoryId, 'memoryId');
  if ('ok' in pending && !pending.ok) return pending;
  const proposed = (await proposedEvents(ledger, stream)).find((p) => p.memoryId === memoryId);
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
      now,
    }),
  );
  return outcome.ok ? { ok: true, result: recordResultOf(outcome.result) } : outcome;
}

/** A ProposalRejected (kept for audit), answered like the other lifecycle commands (HTTP and CLI alike). */
export const rejectCandidate = (
  ledger: Ledger,
  context: CommandContext,
  memoryId: string,
  reason?: string,
): Promise<Result<LifecycleResult>> =>
  runLifecycleCommand(ledger, context, { type: 'RejectProposal', memoryId, ...(reason !== undefined ? { reason } : {}) });

/** The sweep for one subject: pending candidates past their expiry at `at` (default: the clock) become ProposalExpired. */
export async function expireCandidates(ledger: Ledger, context: CommandContext, at?: Instant): Promise<Result<SubjectEffect>> {
  const stream = subjectStreamName(context.tenant, context.subject);
  return executeSubjectCommand(ledger, { stream, commandId: newCommandId(), ...actorOf(context) }, (_loaded, now) => ({
    type: 'ExpireProposals',
    now: at ?? now,
  }));
}
