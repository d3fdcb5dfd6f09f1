// A stream folded up to a revision, with the window of recent commands (by
// idempotency key) that idempotent retries are answered from, and every
// command the stream holds (so a retry is recognised however old, e.g. the
// lines of a large import run again, and a key reused for another request is
// told from it).
import { decodeStoredEvent } from '../../domain/events/decode.js';
import type { DomainEvent } from '../../domain/events/catalog.js';
import { PersistentMap } from '../../domain/persistent-map/persistent-map.js';
import type { Position, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { StreamKind } from './stream-kind.js';
import { CommandWindow } from './command-window.js';

export type { CommandSpan } from './command-window.js';

/** How many recent commands a retry is recognised within, per stream. */
export const COMMAND_WINDOW = 1024;

export interface LoadedStream<State> {
  readonly stream: string;
  readonly state: State;
  /** Revision of the last event folded; -1 when the stream does not exist. */
  readonly revision: number;
  /** Log position of the last event folded (what a read of the stream's state must reflect); undefined when the stream does not exist. */
  readonly position?: Position;
  /** Recent commands by idempotency key (causationId): the COMMAND_WINDOW latest. */
  readonly commands: CommandWindow;
  /** Every command of the stream: its first event's id (which request it was: command-ids.ts), by idempotency key. */
  readonly firstEvents: PersistentMap<string>;
  /** The revisions of the events the kind names (StreamKind.placeOf), by name. */
  readonly places: PersistentMap<number>;
}

export function emptyStream<State, Command, Event extends DomainEvent, Decision>(
  kind: StreamKind<State, Command, Event, Decision>,
  stream: string,
): LoadedStream<State> {
  return {
    stream,
    state: kind.decider.initialState(),
    revision: -1,
    commands: CommandWindow.empty(COMMAND_WINDOW),
    firstEvents: PersistentMap.empty(),
    places: PersistentMap.empty(),
  };
}

/**
 * Folds events that follow `loaded.revision`; returns a new value (the old one is left as it was).
 * `decoded`, when given, holds each event already decoded (what an append just wrote), in order.
 */
export function foldInto<State, Command, Event extends DomainEvent, Decision>(
  kind: StreamKind<State, Command, Event, Decision>,
  loaded: LoadedStream<State>,
  events: readonly StoredEvent[],
  decoded?: readonly DomainEvent[],
): LoadedStream<State> {
  if (events.length === 0) return loaded;
  let state = loaded.state;
  const commands: [string, number][] = [];
  let firstEvents = loaded.firstEvents;
  let places = loaded.places;
  let revision = loaded.revision;
  let position = loaded.position;
  for (const [i, stored] of events.entries()) {
    if (stored.streamRevision !== revision + 1) {
      throw new Error(`${loaded.stream}: expected revision ${revision + 1}, read ${stored.streamRevision}`);
    }
    const event = decoded?.[i] ?? decodeStoredEvent(stored);
    if (kind.owns(event)) {
      state = kind.decider.evolve(state, event);
      const place = kind.placeOf?.(event);
      if (place !== undefined) places = places.set(place, stored.streamRevision);
    }
    revision = stored.streamRevision;
    position = stored.position;
    const commandId = stored.metadata.causationId;
    if (commandId) {
      commands.push([commandId, revision]);
      if (!firstEvents.has(commandId)) firstEvents = firstEvents.set(commandId, stored.id);
    }
  }
  return {
    stream: loaded.stream,
    state,
    revision,
    ...(position ? { position } : {}),
    commands: loaded.commands.extendedBy(commands),
    firstEvents,
    places,
  };
}
