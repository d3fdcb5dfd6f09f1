// The one command loop of the write side: load the folded stream, decide,
// append with the loaded revision as the expected one. On
// WrongExpectedVersion, reload and decide again, a bounded number of times;
// an append of unknown outcome is sent again as it was (append-settled.ts).
// A command whose idempotency key is already in the stream appends nothing
// and answers from the events it appended the first time.
import { decodeStoredEvent } from '../../domain/events/decode.js';
import type { DomainEvent } from '../../domain/events/catalog.js';
import type { SubjectCommand } from '../../domain/subject/commands.js';
import { decide } from '../../domain/subject/decide.js';
import type { Rejection, WriteDecision } from '../../domain/subject/decision.js';
import type { SubjectState } from '../../domain/subject/state.js';
import { instantOf, type Instant } from '../../domain/values/instant.js';
import { WrongExpectedVersion, type EventStore, type StoredEvent } from '../../infrastructure/event-store/port.js';
import { appendSettled } from './append-settled.js';
import { toNewEvents } from './new-events.js';
import type { LoadedSubject } from './loaded-subject.js';
import type { SubjectRepository } from './subject-repository.js';

export interface SubjectCommandDeps {
  readonly eventStore: EventStore;
  readonly subjects: SubjectRepository;
  readonly clock: () => Date;
}

export interface CommandEnvelope {
  readonly stream: string;
  /** The idempotency key: event ids derive from it. */
  readonly commandId: string;
  readonly actor?: string;
  readonly correlationId?: string;
}

export interface AppendedEvent {
  readonly stored: StoredEvent;
  readonly event: DomainEvent;
}

/** What a command did: the events it appended (now, or the first time), and the state after. */
export interface CommandEffect {
  readonly events: readonly AppendedEvent[];
  readonly state: SubjectState;
  /** The stream's revision after the command. */
  readonly revision: number;
  /** The write decision, when this attempt decided one (absent on an idempotent replay). */
  readonly decision?: WriteDecision;
  /** True when the command had already been applied and nothing was appended now. */
  readonly replayed: boolean;
}

export type CommandOutcome<R> = { readonly ok: true; readonly result: R } | { readonly ok: false; readonly rejection: Rejection };

/** Another writer kept winning the race for the stream. */
export class ConcurrencyExhausted extends Error {
  override readonly name = 'ConcurrencyExhausted';
  constructor(
    readonly stream: string,
    readonly attempts: number,
  ) {
    super(`${stream}: gave up after ${attempts} attempts, the stream kept changing`);
  }
}

const MAX_ATTEMPTS = 25;

export async function executeSubjectCommand(
  deps: SubjectCommandDeps,
  envelope: CommandEnvelope,
  build: (loaded: LoadedSubject, now: Instant) => SubjectCommand,
): Promise<CommandOutcome<CommandEffect>> {
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const loaded = await deps.subjects.load(envelope.stream);
    const done = loaded.commands.get(envelope.commandId);
    if (done) {
      const events = await readSpan(deps.eventStore, envelope.stream, done.firstRevision, done.lastRevision);
      return { ok: true, result: { events, state: loaded.state, revision: loaded.revision, replayed: true } };
    }
    const decided = decide(loaded.state, build(loaded, instantOf(deps.clock())));
    if (!decided.ok) return decided;
    if (decided.events.length === 0) {
      return {
        ok: true,
        result: { events: [], state: loaded.state, revision: loaded.revision, replayed: false, ...decision(decided.decision) },
      };
    }
    const batch = toNewEvents(decided.events, envelope);
    try {
      await appendSettled(deps.eventStore, envelope.stream, batch, {
        expectedRevision: loaded.revision < 0 ? 'no_stream' : loaded.revision,
      });
    } catch (error) {
      if (error instanceof WrongExpectedVersion) {
        await backoff(attempt);
        continue;
      }
      throw error;
    }
    const after = await deps.subjects.load(envelope.stream);
    const span = after.commands.get(envelope.commandId);
    const first = span?.firstRevision ?? loaded.revision + 1;
    const events = await readSpan(deps.eventStore, envelope.stream, first, first + batch.length - 1);
    return { ok: true, result: { events, state: after.state, revision: after.revision, replayed: false, ...decision(decided.decision) } };
  }
  throw new ConcurrencyExhausted(envelope.stream, MAX_ATTEMPTS);
}

function decision(d: WriteDecision | undefined): { decision?: WriteDecision } {
  return d ? { decision: d } : {};
}

async function readSpan(store: EventStore, stream: string, first: number, last: number): Promise<AppendedEvent[]> {
  const stored = await store.readStream(stream, { fromRevision: first, maxCount: last - first + 1 });
  return stored.map((s) => ({ stored: s, event: decodeStoredEvent(s) }));
}

function backoff(attempt: number): Promise<void> {
  // Jittered, so racing writers spread out instead of colliding again.
  const ms = Math.random() * Math.min(5 * 2 ** attempt, 200);
  return new Promise((resolve) => setTimeout(resolve, ms));
}
