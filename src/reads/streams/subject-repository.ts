// Folded subject streams, kept per process (the command loop is src/commands/stream).
import { isSubjectEvent } from '../../domain/events/catalog.js';
import type { SubjectEvent } from '../../domain/events/subject-events.js';
import type { SubjectCommand } from '../../domain/subject/commands.js';
import { subjectDecider } from '../../domain/subject/decider.js';
import type { WriteDecision } from '../../domain/subject/decision.js';
import type { SubjectState } from '../../domain/subject/state.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import type { StreamKind } from './stream-kind.js';
import { StreamRepository } from './stream-repository.js';

export const subjectStream: StreamKind<SubjectState, SubjectCommand, SubjectEvent, WriteDecision> = {
  decider: subjectDecider,
  owns: isSubjectEvent,
  eventIds: 'derived',
  placeOf: (event) => {
    switch (event.type) {
      // Where each memory's sealed fields are: a write into its slot opens them from that one event (refined-entries.ts).
      case 'MemoryRecorded':
        return recordedPlace(event.data.memoryId);
      // Each candidate's: a reviewer's list and accept read those events alone (candidates.ts).
      case 'MemoryProposed':
        return proposedPlace(event.data.memoryId);
      // Each summary's switch: a publish fenced out asks whether its artifact switched long ago (publish.ts).
      case 'SummaryAliasSwitched':
        return switchedPlace(event.data.artifactId);
      default:
        return undefined;
    }
  },
};

/** The place name of a memory's MemoryRecorded in a subject fold's `places`. */
export const recordedPlace = (memoryId: string): string => `recorded:${memoryId}`;

/** The place name of a candidate's MemoryProposed in a subject fold's `places`. */
export const proposedPlace = (memoryId: string): string => `proposed:${memoryId}`;

/** The place name of a summary's SummaryAliasSwitched (by artifact id) in a subject fold's `places`. */
export const switchedPlace = (artifactId: string): string => `switched:${artifactId}`;

export class SubjectRepository extends StreamRepository<SubjectState, SubjectCommand, SubjectEvent, WriteDecision> {
  constructor(store: EventStore, capacity = 10_000) {
    super(subjectStream, store, capacity);
  }
}
