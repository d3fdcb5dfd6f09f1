// The wire-level double's in-memory transaction log. It reproduces the parts
// of EventStoreDB's commit check (IndexWriter.CheckCommit) that clients can
// observe — expected revisions and idempotent retries — so the shared contract
// cases apply; it is no model of the server's storage.
import { randomInt } from 'node:crypto';

export type Expected =
  | { readonly kind: 'any' }
  | { readonly kind: 'no_stream' }
  | { readonly kind: 'stream_exists' }
  | { readonly kind: 'revision'; readonly revision: number };

export interface ProposedEvent {
  readonly id: string;
  readonly type: string;
  readonly contentType: string;
  readonly data: Uint8Array;
  readonly customMetadata: Uint8Array;
}

export interface LoggedEvent extends ProposedEvent {
  readonly stream: string;
  readonly revision: number;
  /**
   * This event's own log offset. Servers since 20.x write a batch as prepares
   * flagged IsCommitted (no commit record), and $all reads position each
   * event at TFPos(prepare.LogPosition, prepare.LogPosition)
   * (src/EventStore.Core/Services/Storage/ReaderIndex/AllReader.cs), so
   * commit = prepare, distinct for every event of a batch.
   */
  readonly commit: bigint;
  readonly prepare: bigint;
  /**
   * .NET ticks (100 ns) since the Unix epoch, as the server sends `created`:
   * the leader's clock read for each event as its prepare is written
   * (LogRecord.Prepare stamps DateTime.UtcNow per record,
   * src/EventStore.Core/TransactionLog/LogRecords/LogRecord.cs), so one batch
   * can straddle a millisecond, and stamps step back with the clock.
   */
  readonly created: bigint;
}

export type CommitOutcome =
  | { readonly kind: 'written'; readonly lastRevision: number; readonly last: LoggedEvent }
  | { readonly kind: 'idempotent'; readonly lastRevision: number; readonly last: LoggedEvent }
  /** A write with no events: accepted, with no position to report. */
  | { readonly kind: 'empty'; readonly currentRevision: number }
  /** `currentRevision` -1 when the stream does not exist (the client's "no_stream"). */
  | { readonly kind: 'wrong_expected_version'; readonly currentRevision: number }
  /** A retry of a write not yet indexed (CommitDecision.IdempotentNotReady): dropped; the client hears a timeout. */
  | { readonly kind: 'not_ready' };

const TICKS_PER_MS = 10_000n;
/** ESConsts.CommitedEventsMemCacheLimit. */
export const COMMITTED_EVENTS_CACHE_BYTES = 8 * 1024 * 1024;

/** What a node reads from: the leader's log, or a follower's copy of it. */
export interface LogView {
  readonly events: readonly LoggedEvent[];
  stream(name: string): readonly LoggedEvent[];
  onAppended(listener: () => void): () => void;
}

/** The leader's clock: milliseconds since the Unix epoch, with a fraction (it may step back). */
export type ServerClock = () => number;

export class InMemoryLog implements LogView {
  readonly events: LoggedEvent[] = [];
  private readonly streams = new Map<string, LoggedEvent[]>();
  /**
   * EventStoreDB's committed-events cache, the only memory `any` and
   * `stream_exists` retries are checked against: event id -> where it was
   * last written. Bounded as IndexWriter's `_committedEvents` is (a
   * BoundedCache of ESConsts.CommitedEventsMemCacheLimit = 8 MiB, an entry
   * costing 16 + 4 + IntPtr.Size + the stream id's size, UTF-16), oldest
   * first out; empty after a restart. Exact and `no_stream` retries are
   * checked by place in the stream, at any age.
   */
  private readonly ids = new Map<string, { stream: string; revision: number; bytes: number }>();
  private idBytes = 0;
  private readonly listeners = new Set<() => void>();
  /** Ids of writes still replicating (not yet indexed), until when. */
  private readonly inFlight = new Map<string, number>();
  // Offsets start past a small header and grow by each record's size, so
  // positions are sparse like a real transaction file.
  private nextOffset = BigInt(1_000 + randomInt(1_000));

  constructor(
    private readonly clock: ServerClock = () => Date.now() + randomInt(10_000) / 10_000,
    private readonly idCacheBytes: number = COMMITTED_EVENTS_CACHE_BYTES,
  ) {}

  /** What a restart forgets: the committed-events cache (the log and its index stay). */
  restart(): void {
    this.ids.clear();
    this.idBytes = 0;
  }

  stream(name: string): readonly LoggedEvent[] {
    return this.streams.get(name) ?? [];
  }

  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Checks and writes one batch atomically (the double is single-threaded, so appends are serialized). */
  commit(
    stream: string,
    expected: Expected,
    proposed: readonly ProposedEvent[],
    options: { readonly inFlightMs?: number } = {},
  ): CommitOutcome {
    const decision = this.check(
      stream,
      expected,
      proposed.map((e) => e.id),
    );
    if (decision.kind === 'idempotent' && proposed.some((e) => (this.inFlight.get(e.id) ?? 0) > Date.now())) return { kind: 'not_ready' };
    if (decision.kind !== 'ok') return decision;
    if (options.inFlightMs) for (const event of proposed) this.inFlight.set(event.id, Date.now() + options.inFlightMs);
    const existing = this.streams.get(stream) ?? [];
    if (proposed.length === 0) return { kind: 'empty', currentRevision: existing.length - 1 };
    const written: LoggedEvent[] = proposed.map((event, i) => {
      const offset = this.nextOffset;
      this.nextOffset += BigInt(64 + stream.length + event.type.length + event.data.length + event.customMetadata.length);
      const created = BigInt(Math.floor(this.clock() * Number(TICKS_PER_MS)));
      return { ...event, stream, revision: existing.length + i, commit: offset, prepare: offset, created };
    });
    this.streams.set(stream, [...existing, ...written]);
    for (const event of written) {
      this.events.push(event);
      this.remember(event.id, stream, event.revision);
    }
    for (const listener of [...this.listeners]) listener();
    const last = written[written.length - 1]!;
    return { kind: 'written', lastRevision: last.revision, last };
  }

  private remember(id: string, stream: string, revision: number): void {
    const old = this.ids.get(id);
    if (old) this.idBytes -= old.bytes;
    this.ids.delete(id);
    const bytes = 16 + 4 + 8 + 2 * stream.length;
    this.ids.set(id, { stream, revision, bytes });
    this.idBytes += bytes;
    for (const [oldest, entry] of this.ids) {
      if (this.idBytes <= this.idCacheBytes) break;
      this.ids.delete(oldest);
      this.idBytes -= entry.bytes;
    }
  }

  private check(
    stream: string,
    expected: Expected,
    ids: readonly string[],
  ): { kind: 'ok' } | Extract<CommitOutcome, { kind: 'idempotent' | 'wrong_expected_version' }> {
    const events = this.streams.get(stream) ?? [];
    const current = events.length - 1;
    const wrong = { kind: 'wrong_expected_version', currentRevision: current } as const;
    if (expected.kind === 'stream_exists' && current < 0) return wrong;
    if (expected.kind === 'any' || expected.kind === 'stream_exists') {
      // By id: the first id decides whether this is a retry; a retry that
      // matches only in part is "corrupted idempotency", answered as WEV.
      let first: { stream: string; revision: number } | undefined;
      let last: { stream: string; revision: number } | undefined;
      for (const id of ids) {
        const seen = this.ids.get(id);
        if (!seen || seen.stream !== stream) return first ? wrong : { kind: 'ok' };
        first ??= seen;
        last = seen;
      }
      if (!last) return { kind: 'ok' };
      return { kind: 'idempotent', lastRevision: last.revision, last: events[last.revision]! };
    }
    const expectedRevision = expected.kind === 'no_stream' ? -1 : expected.revision;
    if (expectedRevision < current) {
      // By place: the ids must be the events that follow the expected revision.
      let revision = expectedRevision;
      for (const id of ids) {
        revision += 1;
        if (events[revision]?.id === id) continue;
        return wrong;
      }
      if (revision === expectedRevision) return wrong;
      return { kind: 'idempotent', lastRevision: revision, last: events[revision]! };
    }
    if (expectedRevision > current) return wrong;
    return { kind: 'ok' };
  }
}
