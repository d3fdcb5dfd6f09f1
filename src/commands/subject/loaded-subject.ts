// A subject stream folded up to a revision, with the window of recent
// commands (by idempotency key) that idempotent retries are answered from.
import { decodeStoredEvent } from '../../domain/events/decode.js';
import { isSubjectEvent } from '../../domain/events/catalog.js';
import { evolve } from '../../domain/subject/evolve.js';
import { initialState, type SubjectState } from '../../domain/subject/state.js';
import type { StoredEvent } from '../../infrastructure/event-store/port.js';

/** How many recent commands a retry is recognised within, per subject. */
export const COMMAND_WINDOW = 1024;

export interface CommandSpan {
  readonly firstRevision: number;
  readonly lastRevision: number;
  /** Which request the command was (its ids derive from it: command-ids.ts). */
  readonly firstEventId: string;
}

export interface LoadedSubject {
  readonly stream: string;
  readonly state: SubjectState;
  /** Revision of the last event folded; -1 when the stream does not exist. */
  readonly revision: number;
  /** Recent commands by idempotency key (causationId), oldest first. */
  readonly commands: ReadonlyMap<string, CommandSpan>;
}

export function emptySubject(stream: string): LoadedSubject {
  return { stream, state: initialState(), revision: -1, commands: new Map() };
}

/** Folds events that follow `loaded.revision`; returns a new value (the old one is left as it was). */
export function foldInto(loaded: LoadedSubject, events: readonly StoredEvent[]): LoadedSubject {
  if (events.length === 0) return loaded;
  let state = loaded.state;
  const commands = new Map(loaded.commands);
  let revision = loaded.revision;
  for (const stored of events) {
    if (stored.streamRevision !== revision + 1) {
      throw new Error(`${loaded.stream}: expected revision ${revision + 1}, read ${stored.streamRevision}`);
    }
    const event = decodeStoredEvent(stored);
    if (isSubjectEvent(event)) state = evolve(state, event);
    revision = stored.streamRevision;
    const commandId = stored.metadata.causationId;
    if (commandId) {
      const span = commands.get(commandId);
      if (span) commands.set(commandId, { ...span, lastRevision: revision });
      else {
        commands.set(commandId, { firstRevision: revision, lastRevision: revision, firstEventId: stored.id });
        if (commands.size > COMMAND_WINDOW) commands.delete(commands.keys().next().value!);
      }
    }
  }
  return { stream: loaded.stream, state, revision, commands };
}
