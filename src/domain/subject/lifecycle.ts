// Retraction, expiry and erasure of entries.
import type { SubjectEvent } from '../events/subject-events.js';
import type { SubjectCommandOf } from './commands.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult } from './decision.js';
import type { SubjectState } from './state.js';

const forgottenSubject = () => reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');

/** A source withdraws an entry. Allowed while active, superseded or expired (withdrawing a past statement still taints what was built on it). */
export function decideRetract(state: SubjectState, command: SubjectCommandOf<'RetractMemory'>): DecideResult {
  if (state.forgotten) return forgottenSubject();
  const entry = state.entries.get(command.memoryId);
  if (!entry) return reject('memory_not_found', `memory ${command.memoryId} does not exist`, 'memoryId');
  if (entry.status === 'retracted') return reject('already_retracted', `memory ${command.memoryId} is already retracted`, 'memoryId');
  if (entry.status === 'forgotten') return reject('already_forgotten', `memory ${command.memoryId} was forgotten`, 'memoryId');
  return accept([{ type: 'MemoryRetracted', data: { memoryId: entry.memoryId, reason: command.reason, retractedAt: command.now } }]);
}

/** The TTL sweeper: every active entry whose expiresAt is at or before `now`, in sequence order. Nothing due: no events. */
export function decideExpire(state: SubjectState, command: SubjectCommandOf<'ExpireMemories'>): DecideResult {
  if (state.forgotten) return accept([]);
  const due = [...state.expiring.entries()]
    .filter(([, expiresAt]) => expiresAt <= command.now)
    .map(([memoryId, expiresAt]) => ({ memoryId, expiresAt, sequence: state.entries.get(memoryId)?.sequence ?? 0 }))
    .sort((a, b) => a.sequence - b.sequence);
  return accept(
    due.map(({ memoryId, expiresAt }): SubjectEvent => ({ type: 'MemoryExpired', data: { memoryId, expiresAt, expiredAt: command.now } })),
  );
}

function withAlias(state: SubjectState, ids: readonly string[], coveredSequences: readonly number[]): string[] {
  const alias = state.alias;
  const covered = alias !== null && coveredSequences.some((s) => s <= alias.coversThrough);
  return [...new Set([...ids, ...(covered ? [alias.artifactId] : [])])].sort();
}

/** Erases one entry (any status but forgotten) and issues the receipt. The caller destroys the entry's key. */
export function decideForgetMemory(state: SubjectState, command: SubjectCommandOf<'ForgetMemory'>): DecideResult {
  if (state.forgotten) return forgottenSubject();
  const entry = state.entries.get(command.memoryId);
  if (!entry) return reject('memory_not_found', `memory ${command.memoryId} does not exist`, 'memoryId');
  if (entry.status === 'forgotten') return reject('already_forgotten', `memory ${command.memoryId} was already forgotten`, 'memoryId');
  return accept([
    {
      type: 'MemoryForgotten',
      data: { memoryId: entry.memoryId, ...(command.reason ? { reason: command.reason } : {}), forgottenAt: command.now },
    },
    {
      type: 'DeletionReceiptIssued',
      data: {
        receiptId: command.receiptId,
        scope: 'memory',
        memoryIds: [entry.memoryId],
        destroyedKeyIds: [...command.destroyedKeyIds],
        invalidatedArtifactIds: withAlias(state, command.invalidatedArtifactIds, [entry.sequence]),
        issuedAt: command.now,
      },
    },
  ]);
}

/** Erases the whole subject; afterwards the stream takes no more commands. */
export function decideForgetSubject(state: SubjectState, command: SubjectCommandOf<'ForgetSubject'>): DecideResult {
  if (state.forgotten) return forgottenSubject();
  const remaining = [...state.entries.values()].filter((e) => e.status !== 'forgotten').sort((a, b) => a.sequence - b.sequence);
  return accept([
    { type: 'SubjectForgotten', data: { ...(command.reason ? { reason: command.reason } : {}), forgottenAt: command.now } },
    {
      type: 'DeletionReceiptIssued',
      data: {
        receiptId: command.receiptId,
        scope: 'subject',
        memoryIds: remaining.map((e) => e.memoryId),
        destroyedKeyIds: [...command.destroyedKeyIds],
        invalidatedArtifactIds: withAlias(
          state,
          command.invalidatedArtifactIds,
          remaining.map((e) => e.sequence),
        ),
        issuedAt: command.now,
      },
    },
  ]);
}
