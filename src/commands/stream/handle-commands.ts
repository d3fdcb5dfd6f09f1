// The one command loop of the write side, for every kind of stream: load the
// folded stream, decide each command in turn against the state the earlier
// ones left, append all their events at once with the loaded revision as the
// expected one. When another writer got there first (WrongExpectedVersion),
// or the store says an append may be retried, reload and decide again, a
// bounded number of times with jittered waits. A command whose idempotency
// key is already in the stream's window is not decided again: it is answered
// from the events it appended the first time (so is an append that did land
// before its answer was lost).
import type { Rejection } from '../../domain/result/result.js';
import type { DomainEvent } from '../../domain/events/catalog.js';
import { instantOf, type Instant } from '../../domain/values/instant.js';
import { WrongExpectedVersion, type AppendResult, type EventStore, type NewEvent } from '../../infrastructure/event-store/port.js';
import { sameRequest } from '../ids/command-ids.js';
import type { GivenKey } from '../ledger.js';
import type { CommandSpan, LoadedStream } from '../../reads/streams/loaded-stream.js';
import { toNewEvents } from './new-events.js';
import type { StreamRepository } from '../../reads/streams/stream-repository.js';

export interface StreamDeps {
  readonly eventStore: EventStore;
  readonly clock: () => Date;
}

/** The stream written to, and who writes (stored in every event's metadata). */
export interface CommandTarget {
  readonly stream: string;
  readonly actor?: string;
  readonly correlationId?: string;
}

export interface CommandItem<Command> {
  /** The idempotency key: the retry window knows the command by it, and derived event ids come from it. */
  readonly commandId: string;
  readonly command: Command;
  /**
   * The hash of the request (requestHashOf): a command whose key the stream
   * already holds is a retry only if it was this very request; another one
   * under the same key is refused (idempotency_key_reused). Absent: not checked.
   */
  readonly requestHash?: string;
  /** The key as the caller gave it, for the refusal. */
  readonly givenKey?: GivenKey;
}

export type ItemOutcome<Decision> =
  | { readonly status: 'replayed'; readonly span: CommandSpan }
  | { readonly status: 'rejected'; readonly rejection: Rejection }
  | { readonly status: 'decided'; readonly events: number; readonly decision?: Decision };

export interface BatchEffect<State, Decision> {
  /** One per command, in order. */
  readonly outcomes: readonly ItemOutcome<Decision>[];
  /** The stream as the deciding attempt loaded it. */
  readonly loaded: LoadedStream<State>;
  /** Present when anything was appended. */
  readonly appended?: AppendResult;
  /** The events appended, as sent (encoded and checked by their schemas), with `appended`. */
  readonly sent?: readonly NewEvent[];
}

/** Another writer kept winning the race for the stream. */
export class ConcurrencyExhausted extends Error {
  override readonly name = 'ConcurrencyExhausted';
  readonly code = 'concurrency_exhausted';
  constructor(
    readonly stream: string,
    readonly attempts: number,
  ) {
    super(`${stream}: gave up after ${attempts} attempts, the stream kept changing`);
  }
}

export const MAX_ATTEMPTS = 25;

export async function handleCommands<State, Command, Event extends DomainEvent, Decision>(
  repository: StreamRepository<State, Command, Event, Decision>,
  deps: StreamDeps,
  target: CommandTarget,
  build: (loaded: LoadedStream<State>, now: Instant) => readonly CommandItem<Command>[],
  /**
   * The stream as the caller has just loaded it (to prepare the command): the
   * first attempt decides against it instead of reading the stream again. An
   * outdated one costs nothing but a retry: the append expects its revision.
   */
  first?: LoadedStream<State>,
): Promise<BatchEffect<State, Decision>> {
  const { decider, eventIds } = repository.kind;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const loaded = attempt === 1 && first?.stream === target.stream ? first : await repository.load(target.stream);
    let state = loaded.state;
    const outcomes: ItemOutcome<Decision>[] = [];
    const batch: NewEvent[] = [];
    for (const { commandId, command, requestHash, givenKey } of build(loaded, instantOf(deps.clock()))) {
      const first = loaded.firstEvents.get(commandId);
      if (first !== undefined && requestHash !== undefined && !sameRequest(target.stream, first, commandId, requestHash)) {
        outcomes.push({ status: 'rejected', rejection: keyReused(commandId, givenKey) });
        continue;
      }
      const span = loaded.commands.get(commandId);
      if (span) {
        outcomes.push({ status: 'replayed', span });
        continue;
      }
      const decided = decider.decide(state, command);
      if (!decided.ok) {
        outcomes.push({ status: 'rejected', rejection: decided.rejection });
        continue;
      }
      for (const event of decided.events) state = decider.evolve(state, event);
      batch.push(
        ...toNewEvents(
          decided.events,
          { ...origin(target), stream: target.stream, commandId, ...(requestHash ? { requestHash } : {}) },
          eventIds,
        ),
      );
      outcomes.push(
        decided.decision === undefined
          ? { status: 'decided', events: decided.events.length }
          : { status: 'decided', events: decided.events.length, decision: decided.decision },
      );
    }
    if (batch.length === 0) return { outcomes, loaded };
    try {
      const appended = await deps.eventStore.append(target.stream, batch, {
        expectedRevision: loaded.revision < 0 ? 'no_stream' : loaded.revision,
      });
      return { outcomes, loaded, appended, sent: batch };
    } catch (error) {
      if (!isRetryable(error)) throw error;
      await backoff(attempt);
    }
  }
  throw new ConcurrencyExhausted(target.stream, MAX_ATTEMPTS);
}

/** The refusal of a key sent again with another request than the one it was first used for. */
export function keyReused(commandId: string, givenKey: GivenKey | undefined): Rejection {
  return {
    code: 'idempotency_key_reused',
    message: `idempotency key "${givenKey?.value ?? commandId}" was first used for another request: a retry must repeat it exactly; a new request needs a new key`,
    field: givenKey?.field ?? 'idempotency-key',
  };
}

/** A conflict, or an append error that says it may be retried (`retryable: true`, e.g. one whose outcome is unknown). */
export function isRetryable(error: unknown): boolean {
  return error instanceof WrongExpectedVersion || (error instanceof Error && (error as { retryable?: unknown }).retryable === true);
}

function origin(target: CommandTarget): { actor?: string; correlationId?: string } {
  return {
    ...(target.actor ? { actor: target.actor } : {}),
    ...(target.correlationId ? { correlationId: target.correlationId } : {}),
  };
}

function backoff(attempt: number): Promise<void> {
  // Jittered, so racing writers spread out instead of colliding again.
  const ms = Math.random() * Math.min(5 * 2 ** attempt, 200);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
