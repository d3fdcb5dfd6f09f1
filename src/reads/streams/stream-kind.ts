// A kind of stream (subject, artifact): its decider, which stored events are
// its own, and how its events get their ids.
import type { Decider } from '../../domain/decider/decider.js';
import type { DomainEvent } from '../../domain/events/catalog.js';

export type EventIds =
  /** From the command's idempotency key: the store recognises a retried command as the same append. */
  | 'derived'
  /** Fresh for every append: two writers racing for a stream must not pass as one idempotent retry. */
  | 'fresh';

export interface StreamKind<State, Command, Event extends DomainEvent, Decision = never> {
  readonly decider: Decider<State, Command, Event, Decision>;
  /** The stored events the decider folds. */
  readonly owns: (event: DomainEvent) => event is Event;
  readonly eventIds: EventIds;
  /**
   * The name under which the fold keeps an event's revision (LoadedStream.places), for events a
   * later read fetches alone (placed-event.ts): a subject's MemoryRecorded, MemoryProposed and
   * SummaryAliasSwitched (subject-repository.ts).
   */
  readonly placeOf?: (event: Event) => string | undefined;
}
