// Deciding feedback (issue 18 item 2): it names a memory of the subject;
// `corrected` only for a memory a newer entry superseded (the event names
// it); `harmful` puts an active memory under review (not served until a
// reviewer confirms it, or retracts it); a reviewer's `confirmed` ends a
// review. Whether the recall served the memory is the handler's check (the
// recall stream is not this stream's state).
import type { SubjectEventData } from '../events/subject-events.js';
import { reject } from '../result/result.js';
import { NO_USAGE, reviewChangeOf } from '../usage/usage.js';
import type { SubjectCommandOf } from './commands.js';
import { accept, type DecideResult } from './decision.js';
import type { SubjectState } from './state.js';
import { restoredIfDemoted } from './demotion.js';

export function decideFeedback(state: SubjectState, command: SubjectCommandOf<'GiveFeedback'>): DecideResult {
  if (state.forgotten) return reject('subject_forgotten', 'the subject was forgotten; its stream takes no more writes');
  const entry = state.entries.get(command.memoryId);
  if (!entry) return reject('memory_not_found', `memory ${command.memoryId} does not exist`, 'memoryId');
  if (entry.status === 'forgotten') return reject('already_forgotten', `memory ${command.memoryId} was forgotten`, 'memoryId');
  if (command.feedback === 'corrected' && (entry.status !== 'superseded' || entry.supersededBy === undefined))
    return reject(
      'not_superseded',
      `memory ${command.memoryId} was not superseded: "corrected" points at the entry that replaced it (supersede it first)`,
      'type',
    );
  const review = reviewChangeOf(entry.usage ?? NO_USAGE, entry.status === 'active', { type: command.feedback, source: command.source });
  const data: SubjectEventData<'MemoryFeedbackGiven'> = {
    memoryId: entry.memoryId,
    ...(command.memoryVersion !== undefined ? { memoryVersion: command.memoryVersion } : {}),
    ...(command.recallId !== undefined ? { recallId: command.recallId } : {}),
    type: command.feedback,
    source: command.source,
    evidenceRefs: command.evidenceRefs,
    ...(command.feedback === 'corrected' ? { correctedBy: entry.supersededBy! } : {}),
    ...(review ? { review } : {}),
    givenAt: command.now,
  };
  // Used or confirmed brings back what the lifecycle demoted (src/domain/subject/demotion.ts).
  const restored = command.feedback === 'used' || command.feedback === 'confirmed' ? restoredIfDemoted(entry, 'feedback', command.now) : [];
  return accept([{ type: 'MemoryFeedbackGiven', data }, ...restored]);
}
