// Candidates on the subject stream (issue 17): a write the gate held is
// proposed (MemoryProposed), and stays pending until a reviewer accepts it
// (a RecordMemory naming the proposal: the normal write decision), rejects
// it (ProposalRejected, kept for audit), or the sweeper expires it.
// A pending proposal is never an entry: nothing reads it as a fact.
import type { SubjectEventData } from '../events/subject-events.js';
import { reject } from '../result/result.js';
import type { Instant } from '../values/instant.js';
import type { SubjectCommandOf } from './commands.js';
import { accept, type DecideResult } from './decision.js';
import type { ProposalState, ProposalStatus, SubjectState } from './state.js';

export function decidePropose(state: SubjectState, command: SubjectCommandOf<'ProposeMemory'>): DecideResult {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  if (state.entries.has(command.memoryId) || state.proposals.has(command.memoryId))
    return reject('memory_id_taken', `memory ${command.memoryId} already exists`, 'memoryId');
  const data: SubjectEventData<'MemoryProposed'> = {
    memoryId: command.memoryId,
    entry: command.entry,
    gate: command.gate,
    proposedAt: command.now,
    expiresAt: command.expiresAt,
    ...(command.promotion !== undefined ? { promotion: command.promotion } : {}),
  };
  return accept([{ type: 'MemoryProposed', data }]);
}

/** The proposal a reviewer acts on, or why it cannot be acted on. */
export function pendingProposal(state: SubjectState, memoryId: string, field = 'proposal'): ProposalState | DecideResult {
  const proposal = state.proposals.get(memoryId);
  if (!proposal) return reject('proposal_not_found', `candidate ${memoryId} does not exist`, field);
  if (proposal.status !== 'pending') return reject('proposal_not_pending', `candidate ${memoryId} is ${proposal.status}`, field);
  return proposal;
}

export function decideRejectProposal(state: SubjectState, command: SubjectCommandOf<'RejectProposal'>): DecideResult {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten');
  const proposal = pendingProposal(state, command.memoryId, 'memoryId');
  if ('ok' in proposal) return proposal;
  const data: SubjectEventData<'ProposalRejected'> = {
    memoryId: proposal.memoryId,
    ...(command.reason !== undefined ? { reason: command.reason } : {}),
    rejectedAt: command.now,
  };
  return accept([{ type: 'ProposalRejected', data }]);
}

/** Pending candidates whose expiry has passed, in id order (deterministic). */
export function dueProposals(state: SubjectState, now: Instant): ProposalState[] {
  return [...state.proposals.values()]
    .filter((p) => p.status === 'pending' && p.expiresAt <= now)
    .sort((a, b) => (a.memoryId < b.memoryId ? -1 : 1));
}

export function decideExpireProposals(state: SubjectState, command: SubjectCommandOf<'ExpireProposals'>): DecideResult {
  if (state.forgotten) return accept([]);
  return accept(
    dueProposals(state, command.now).map((p) => ({
      type: 'ProposalExpired' as const,
      data: { memoryId: p.memoryId, expiresAt: p.expiresAt, expiredAt: command.now },
    })),
  );
}

// evolve's part.
export function proposed(state: SubjectState, data: SubjectEventData<'MemoryProposed'>): SubjectState {
  if (state.proposals.has(data.memoryId)) return state;
  const proposal: ProposalState = {
    memoryId: data.memoryId,
    kind: data.entry.kind,
    key: data.entry.key,
    proposedAt: data.proposedAt,
    expiresAt: data.expiresAt,
    status: 'pending',
  };
  return { ...state, proposals: state.proposals.set(data.memoryId, proposal) };
}

export function proposalEnded(
  state: SubjectState,
  memoryId: string,
  status: Exclude<ProposalStatus, 'pending'>,
  acceptedAs?: string,
): SubjectState {
  const proposal = state.proposals.get(memoryId);
  if (!proposal || proposal.status !== 'pending') return state;
  const ended: ProposalState = { ...proposal, status, ...(acceptedAs !== undefined ? { acceptedAs } : {}) };
  return { ...state, proposals: state.proposals.set(memoryId, ended) };
}

/**
 * A proposal erased by its memory id (MemoryForgotten naming it: its key is destroyed). One accepted as a new entry is the
 * entry's to forget (same id); one accepted as a DUPLICATE only corroborated another entry, so its own sealed copy is forgotten here.
 */
export function proposalForgotten(state: SubjectState, memoryId: string): SubjectState {
  const proposal = state.proposals.get(memoryId);
  if (!proposal || proposal.status === 'forgotten' || (proposal.status === 'accepted' && proposal.acceptedAs === memoryId)) return state;
  return { ...state, proposals: state.proposals.set(memoryId, { ...proposal, status: 'forgotten' }) };
}

/** A forgotten subject's proposals are forgotten too (their keys went with the subject's). */
export function proposalsForgotten(state: SubjectState): SubjectState['proposals'] {
  let proposals = state.proposals;
  for (const p of state.proposals.values())
    if (p.status !== 'forgotten') proposals = proposals.set(p.memoryId, { ...p, status: 'forgotten' });
  return proposals;
}
