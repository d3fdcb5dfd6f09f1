// Promotion on the source stream (issue 19 item 3): only an active entry of a
// live subject may be promoted, and the event says who asked, why, to which
// shared namespace and under which id the copy is proposed there. The copy
// itself is the target stream's candidate (proposals.ts), accepted or not by
// a reviewer; erasing the source follows this event to it. That the target
// is a shared namespace is the request schema's to say (promote-request.ts).
import type { SubjectEventData } from '../events/subject-events.js';
import { reject, type Rejected } from '../result/result.js';
import type { SubjectCommandOf } from './commands.js';
import { accept, type DecideResult } from './decision.js';
import type { EntryState, SubjectState } from './state.js';

/** The entry a promotion may copy, or why not (naming the request's field). */
export function promotableEntry(state: SubjectState, memoryId: string): EntryState | Rejected {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten', 'subject');
  const entry = state.entries.get(memoryId);
  if (!entry) return reject('memory_not_found', `memory ${memoryId} does not exist`, 'memoryId');
  if (entry.status !== 'active')
    return reject('memory_not_active', `memory ${memoryId} is ${entry.status}: only an active memory is promoted`, 'memoryId');
  return entry;
}

export function decidePromote(state: SubjectState, command: SubjectCommandOf<'PromoteMemory'>): DecideResult {
  const entry = promotableEntry(state, command.memoryId);
  if ('ok' in entry) return entry;
  const data: SubjectEventData<'MemoryPromoted'> = {
    memoryId: entry.memoryId,
    sequence: entry.sequence,
    to: command.to,
    as: command.as,
    reason: command.reason,
    ...(command.requestedBy !== undefined ? { requestedBy: command.requestedBy } : {}),
    requestedAt: command.now,
  };
  return accept([{ type: 'MemoryPromoted', data }]);
}
