// The erasure pipeline's decisions (src/commands/forgetting): tombstones
// first, then — once the keys are destroyed and the read paths were checked —
// the deletion receipt; and expiry by a tenant's retention policy.
import type { SubjectEvent } from '../events/subject-events.js';
import type { SubjectCommandOf } from './commands.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult } from './decision.js';
import type { SubjectState } from './state.js';

// Erasing a forgotten subject's entries: they are already forgotten.
const forgottenSubject = () => reject('already_forgotten', 'the subject was already forgotten', 'subject');

/** MemoryForgotten for each listed entry not forgotten yet (in sequence order); an unknown id is refused, nothing is appended. */
export function decideEraseMemories(state: SubjectState, command: SubjectCommandOf<'EraseMemories'>): DecideResult {
  if (state.forgotten) return forgottenSubject();
  const entries = [];
  // A candidate (never accepted) is erased under the memory id it was proposed with, after the entries.
  const proposals: string[] = [];
  for (const memoryId of new Set(command.memoryIds)) {
    const entry = state.entries.get(memoryId);
    const proposal = state.proposals.get(memoryId);
    if (entry) {
      if (entry.status !== 'forgotten') entries.push(entry);
    } else if (proposal) {
      if (proposal.status !== 'forgotten') proposals.push(memoryId);
    } else return reject('memory_not_found', `memory ${memoryId} does not exist`, 'memoryIds');
  }
  entries.sort((a, b) => a.sequence - b.sequence);
  return accept(
    [...entries.map((e) => e.memoryId), ...proposals.sort()].map((memoryId): SubjectEvent => ({
      type: 'MemoryForgotten',
      data: { memoryId, ...(command.reason ? { reason: command.reason } : {}), forgottenAt: command.now },
    })),
  );
}

export function decideEraseSubject(state: SubjectState, command: SubjectCommandOf<'EraseSubject'>): DecideResult {
  if (state.forgotten) return accept([]);
  return accept([{ type: 'SubjectForgotten', data: { ...(command.reason ? { reason: command.reason } : {}), forgottenAt: command.now } }]);
}

/** The receipt may follow only tombstones: every memory it names is forgotten (or the whole subject is). Allowed on a forgotten subject. */
export function decideIssueReceipt(state: SubjectState, command: SubjectCommandOf<'IssueDeletionReceipt'>): DecideResult {
  const receipt = command.receipt;
  if (receipt.scope === 'subject' && !state.forgotten)
    return reject('memory_not_active', 'a subject receipt needs the subject forgotten first', 'receipt.scope');
  if (!state.forgotten) {
    for (const memoryId of receipt.memoryIds) {
      const entry = state.entries.get(memoryId) ?? state.proposals.get(memoryId);
      if (!entry) return reject('memory_not_found', `memory ${memoryId} does not exist`, 'receipt.memoryIds');
      if (entry.status !== 'forgotten')
        return reject('memory_not_active', `memory ${memoryId} is not forgotten: a receipt follows its tombstone`, 'receipt.memoryIds');
    }
  }
  return accept([{ type: 'DeletionReceiptIssued', data: receipt }]);
}

/** MemoryExpired for each listed entry still active whose due instant is at or before now; others are passed over (the state moved on). */
export function decideExpireByRetention(state: SubjectState, command: SubjectCommandOf<'ExpireByRetention'>): DecideResult {
  if (state.forgotten) return accept([]);
  const due = new Map<string, string>();
  for (const { memoryId, expiresAt } of command.expirations) {
    const entry = state.entries.get(memoryId);
    if (!entry || entry.status !== 'active' || expiresAt > command.now) continue;
    const earlier = due.get(memoryId);
    if (earlier === undefined || expiresAt < earlier) due.set(memoryId, expiresAt);
  }
  const ordered = [...due].sort(([a], [b]) => (state.entries.get(a)?.sequence ?? 0) - (state.entries.get(b)?.sequence ?? 0));
  return accept(
    ordered.map(([memoryId, expiresAt]): SubjectEvent => ({
      type: 'MemoryExpired',
      data: { memoryId, expiresAt, expiredAt: command.now },
    })),
  );
}
