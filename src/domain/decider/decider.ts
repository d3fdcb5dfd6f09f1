// A decider: the whole behaviour of one kind of stream as three pure
// functions. The command loop (src/commands/stream) folds the stream with
// `evolve` from `initialState`, asks `decide` for the events, and appends
// them with the revision it folded as the expected one.
import type { Rejected } from '../result/result.js';

/** What decide answers: the events to append (maybe none), or why nothing may be; `decision` carries what the events alone do not say. */
export type Decided<Event, Decision = never> =
  { readonly ok: true; readonly events: readonly Event[]; readonly decision?: Decision } | Rejected;

export interface Decider<State, Command, Event, Decision = never> {
  readonly initialState: () => State;
  readonly evolve: (state: State, event: Event) => State;
  readonly decide: (state: State, command: Command) => Decided<Event, Decision>;
}

/** The `never` check that ends every switch over commands (and events): a new type that is not handled is a compile error. */
export function unhandled(value: never): never {
  throw new Error(`not handled: ${JSON.stringify(value)}`);
}
