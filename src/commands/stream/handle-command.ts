// One command through the command loop (handle-commands.ts), answered with
// the events it appended — now, or on an idempotent retry the first time —
// as the store holds them, and the state after.
import type { DomainEvent } from '../../domain/events/catalog.js';
import { decodeStoredEvent } from '../../domain/events/decode.js';
import type { Result } from '../../domain/result/result.js';
import type { Instant } from '../../domain/values/instant.js';
import type { EventStore, NewEvent, StoredEvent } from '../../infrastructure/event-store/port.js';
import { requestHashOf } from '../ids/command-ids.js';
import type { GivenKey } from '../ledger.js';
import { handleCommands, type CommandTarget, type StreamDeps } from './handle-commands.js';
import type { LoadedStream } from '../../reads/streams/loaded-stream.js';
import type { StreamRepository } from '../../reads/streams/stream-repository.js';

export interface CommandEnvelope extends CommandTarget {
  /** The idempotency key: event ids derive from it. */
  readonly commandId: string;
  /** The validated request (JSON) that a retry under the same key must repeat (handle-commands.ts: CommandItem.requestHash). */
  readonly request?: unknown;
  readonly givenKey?: GivenKey;
}

export interface AppendedEvent {
  readonly stored: StoredEvent;
  readonly event: DomainEvent;
}

/** What a command did: the events it appended (now, or the first time), and the state after. */
export interface CommandEffect<State, Decision> {
  readonly events: readonly AppendedEvent[];
  readonly state: State;
  /** The stream's revision after the command. */
  readonly revision: number;
  /** What decide said besides the events, when this attempt decided (absent on an idempotent replay). */
  readonly decision?: Decision;
  /** True when the command had already been applied and nothing was appended now. */
  readonly replayed: boolean;
}

export async function handleCommand<State, Command, Event extends DomainEvent, Decision>(
  repository: StreamRepository<State, Command, Event, Decision>,
  deps: StreamDeps,
  envelope: CommandEnvelope,
  build: (loaded: LoadedStream<State>, now: Instant) => Command,
  /** The stream as the caller has just loaded it (handleCommands' `first`). */
  first?: LoadedStream<State>,
): Promise<Result<CommandEffect<State, Decision>>> {
  const { outcomes, loaded, appended, sent } = await handleCommands(
    repository,
    deps,
    envelope,
    (l, now) => [
      {
        commandId: envelope.commandId,
        command: build(l, now),
        ...(envelope.request !== undefined ? { requestHash: requestHashOf(envelope.request) } : {}),
        ...(envelope.givenKey ? { givenKey: envelope.givenKey } : {}),
      },
    ],
    first,
  );
  const outcome = outcomes[0]!;
  switch (outcome.status) {
    case 'rejected':
      return { ok: false, rejection: outcome.rejection };
    case 'replayed': {
      const events = await readSpan(deps.eventStore, envelope.stream, outcome.span.firstRevision, outcome.span.lastRevision);
      return { ok: true, result: { events, state: loaded.state, revision: loaded.revision, replayed: true } };
    }
    case 'decided': {
      const decision = outcome.decision === undefined ? {} : { decision: outcome.decision };
      if (!appended)
        return { ok: true, result: { events: [], state: loaded.state, revision: loaded.revision, replayed: false, ...decision } };
      // The store handed back what it wrote: fold what was sent on the loaded stream, no read again, no decoding of it.
      const written = appended.written;
      if (
        written !== undefined &&
        written.length === outcome.events &&
        written[0]?.streamRevision === loaded.revision + 1 &&
        written.every((stored, i) => stored.id.toLowerCase() === sent?.[i]?.id.toLowerCase())
      ) {
        const events = written.map((stored, i) => ({ stored, event: sentEvent(sent![i]!) }));
        const after = repository.folded(
          loaded,
          written,
          events.map(({ event }) => event),
        );
        return { ok: true, result: { events, state: after.state, revision: after.revision, replayed: false, ...decision } };
      }
      const after = await repository.load(envelope.stream);
      const first = after.commands.get(envelope.commandId)?.firstRevision ?? loaded.revision + 1;
      const events = await readSpan(deps.eventStore, envelope.stream, first, first + outcome.events - 1);
      return { ok: true, result: { events, state: after.state, revision: after.revision, replayed: false, ...decision } };
    }
    default:
      return outcome satisfies never;
  }
}

/**
 * An event as sent: encodeEvent's output, checked by its schema, which is
 * what decoding it from the log gives back (test/domain/decider.property.test.ts
 * holds decode(JSON(encode(event))) equal to the event).
 */
const sentEvent = (event: NewEvent): DomainEvent => ({ type: event.type, data: event.data }) as DomainEvent;

async function readSpan(store: EventStore, stream: string, first: number, last: number): Promise<AppendedEvent[]> {
  const stored = await store.readStream(stream, { fromRevision: first, maxCount: last - first + 1 });
  return stored.map((s) => ({ stored: s, event: decodeStoredEvent(s) }));
}
