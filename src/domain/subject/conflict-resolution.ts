// A conflict is settled only by an explicit decision (never by the
// consolidator): the winner stays, the other active members are superseded.
import type { SubjectEvent } from '../events/subject-events.js';
import type { SubjectCommandOf } from './commands.js';
import { reject } from '../result/result.js';
import { accept, type DecideResult } from './decision.js';
import type { SubjectState } from './state.js';

export function decideResolveConflict(state: SubjectState, command: SubjectCommandOf<'ResolveConflict'>): DecideResult {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  const conflict = state.conflicts.get(command.conflictId);
  if (!conflict) return reject('conflict_not_found', `conflict ${command.conflictId} does not exist`, 'conflictId');
  if (conflict.status !== 'open') return reject('conflict_not_open', `conflict ${command.conflictId} is ${conflict.status}`, 'conflictId');
  if (!conflict.memoryIds.includes(command.winner))
    return reject('winner_not_in_conflict', `memory ${command.winner} is not part of conflict ${conflict.conflictId}`, 'winner');
  const winner = state.entries.get(command.winner);
  if (!winner || winner.status !== 'active')
    return reject('winner_not_active', `memory ${command.winner} is ${winner?.status ?? 'missing'}`, 'winner');
  const losers = conflict.memoryIds
    .map((id) => state.entries.get(id))
    .filter((e): e is NonNullable<typeof e> => e !== undefined && e.status === 'active' && e.memoryId !== winner.memoryId);
  const events: SubjectEvent[] = [
    {
      type: 'ConflictResolved',
      data: {
        conflictId: conflict.conflictId,
        winner: winner.memoryId,
        losers: losers.map((l) => l.memoryId),
        ...(command.reason ? { reason: command.reason } : {}),
        resolvedAt: command.now,
      },
    },
    ...losers.map((loser): SubjectEvent => {
      // A loser held while it was not contradicted by the winner: until the winner's validFrom, or never if it started later.
      const closeAt = loser.validFrom > winner.validFrom ? loser.validFrom : winner.validFrom;
      const validTo = loser.validTo !== undefined && loser.validTo < closeAt ? loser.validTo : closeAt;
      return {
        type: 'MemorySuperseded',
        data: { memoryId: loser.memoryId, supersededBy: winner.memoryId, validTo, cause: 'conflict_resolution', supersededAt: command.now },
      };
    }),
  ];
  return accept(events);
}
