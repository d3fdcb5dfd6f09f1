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
};

export class SubjectRepository extends StreamRepository<SubjectState, SubjectCommand, SubjectEvent, WriteDecision> {
  constructor(store: EventStore, capacity = 10_000) {
    super(subjectStream, store, capacity);
  }
}
