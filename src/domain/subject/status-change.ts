// What status an event gives a memory: the one rule that the subject's
// evolve, the memory projection and replay's fold all follow. MemoryRecorded
// opens a memory `active` (a memory id recorded again keeps its first
// record); the events below move it out of `active`; forgetting is final.
import { unhandled } from '../decider/decider.js';
import type { SubjectEventOf } from '../events/subject-events.js';
import type { Instant } from '../values/instant.js';
import type { EntryStatus } from './state.js';

export type LeftStatus = Exclude<EntryStatus, 'active'>;

/** The events that change one memory's status. */
export type StatusChangingEvent = SubjectEventOf<
  'MemorySuperseded' | 'MemoryRetracted' | 'MemoryExpired' | 'MemoryArchived' | 'MemoryForgotten'
>;

export interface StatusChange {
  readonly memoryId: string;
  readonly status: LeftStatus;
  /** Superseded: where the entry's valid window now ends, and what took its place. */
  readonly validTo?: Instant;
  readonly supersededBy?: string;
}

export function statusChangeOf(event: StatusChangingEvent): StatusChange {
  switch (event.type) {
    case 'MemorySuperseded':
      return { memoryId: event.data.memoryId, status: 'superseded', validTo: event.data.validTo, supersededBy: event.data.supersededBy };
    case 'MemoryRetracted':
      return { memoryId: event.data.memoryId, status: 'retracted' };
    case 'MemoryExpired':
      return { memoryId: event.data.memoryId, status: 'expired' };
    case 'MemoryArchived':
      return { memoryId: event.data.memoryId, status: 'archived' };
    case 'MemoryForgotten':
      return { memoryId: event.data.memoryId, status: 'forgotten' };
    default:
      return unhandled(event);
  }
}

/** SubjectForgotten gives every memory of the subject this status. */
export const SUBJECT_FORGOTTEN_STATUS: LeftStatus = 'forgotten';

/** Forgetting is final; any other status may still change (e.g. a superseded entry retracted later). */
export function statusMayChange(current: EntryStatus): boolean {
  return current !== 'forgotten';
}
