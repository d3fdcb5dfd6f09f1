// The event store port: EventStoreDB's semantics, so that no code above this
// line depends on which store runs. Both adapters (PostgreSQL, EventStoreDB)
// are held to it by one contract suite (test/contract/event-store.contract.ts).

export * from './store-errors.js';

/** `any`, `no_stream`, `stream_exists`, or the exact revision of the stream's last event. */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | number;

/**
 * A place in the global log, compared lexicographically (commit, then prepare),
 * as EventStoreDB's own Position. PostgreSQL: commit = the appending
 * transaction's id (xid8), prepare = the row's global sequence number.
 */
export interface Position {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export interface EventMetadata {
  readonly correlationId?: string;
  readonly causationId?: string;
  readonly actor?: string;
  readonly schemaVersion: number;
}

/** An event as a caller appends it. `id` is a UUID chosen by the caller (idempotency). */
export interface NewEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
}

/** An event as the store returns it. */
export interface StoredEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: EventMetadata;
  readonly stream: string;
  /** 0-based revision of this event in its stream. */
  readonly streamRevision: number;
  readonly position: Position;
  /**
   * The transaction time of the bitemporal model, millisecond precision: one
   * instant for all events of one append (so "as of" any of them shows the
   * whole batch), never earlier than the stream's previous event, also when a
   * clock steps back (replay, which stops at the first event after T, agrees
   * with asOf). PostgreSQL: the server's clock at the insert, raised to the
   * previous event's. EventStoreDB: its server stamps each event on its own
   * with the leader's clock (straddling milliseconds, stepping back after a
   * failover), so the adapter stamps the append with the writer's clock,
   * raised likewise, in the events' metadata (esdb/recorded-at.ts).
   */
  readonly recordedAt: Date;
}

export interface AppendResult {
  /** Revision of the last event of the stream after the append (what to expect next time). */
  readonly nextExpectedRevision: number;
  /** Position of the last event written (or already present, on an idempotent retry). */
  readonly position: Position;
  /**
   * The events this append wrote, as readStream would return them (their
   * data and metadata the very values sent, which the log holds as JSON),
   * when the store has them at hand (PostgreSQL's insert returns their places);
   * absent on an idempotent retry and from stores that do not (EventStoreDB):
   * then a caller reads them.
   */
  readonly written?: readonly StoredEvent[];
}

export interface ReadStreamOptions {
  /** Inclusive. Defaults to 0 forwards, to the end backwards. */
  readonly fromRevision?: number;
  readonly direction?: 'forwards' | 'backwards';
  readonly maxCount?: number;
}

/**
 * Which events of the global log a reader wants; empty = all of the store's
 * own events. EventStoreDB's $all may be shared with other applications: its
 * adapter is opened with memledger's stream prefixes and never hands out (nor
 * decodes) an event outside them, nor a system event.
 */
export interface LogFilter {
  readonly streamPrefixes?: readonly string[];
  readonly eventTypePrefixes?: readonly string[];
}

export interface ReadAllOptions {
  /** Exclusive: only events strictly after this position. Omitted = from the start. */
  readonly after?: Position;
  readonly maxCount?: number;
  readonly filter?: LogFilter;
}

export interface ReadPageOptions extends ReadAllOptions {
  readonly maxCount: number;
}

/** Which events of the global log to count: readAll's `after` and `filter`, up to a position, at most `limit`. */
export interface CountAllOptions {
  readonly after?: Position;
  /** Inclusive: only events at or before this position. Omitted = to the end of the log. */
  readonly upTo?: Position;
  readonly filter?: LogFilter;
  /** Counting stops here: a count equal to it means "at least". */
  readonly limit: number;
}

/** A page of the global log, and how far the read examined the log to fill it. */
export interface ExaminedPage {
  readonly events: StoredEvent[];
  /**
   * Every event after `after` up to this position that the filter matches is
   * in `events` (at or past the last of them; undefined: nothing after `after`
   * was examined). A filtered reader moves on from here, not from its last
   * event, and so never reads the events it passed over again.
   */
  readonly examinedTo: Position | undefined;
}

export interface SubscribeAllOptions {
  /** Exclusive: catch up from strictly after this position, then go live. */
  readonly after?: Position;
  readonly filter?: LogFilter;
}

/** A catch-up subscription: iterate to receive events in log order; `close()` ends the iteration. */
export interface Subscription extends AsyncIterable<StoredEvent> {
  close(): Promise<void>;
}

export interface EventStore {
  /**
   * Appends a batch at the stream's next revisions. A mismatch with
   * `expectedRevision` throws WrongExpectedVersion and writes nothing.
   * Re-appending a batch whose event ids are already stored, in that stream,
   * at the revisions they would take, succeeds and writes nothing new
   * (EventStoreDB's idempotent write).
   *
   * memledger relies on that only with an exact revision or `no_stream`,
   * which both stores check by place in the stream, at any age. With `any`
   * (or `stream_exists`) EventStoreDB recognises a retry only while its
   * committed-events cache (8 MiB, emptied by a restart) holds the ids, and
   * writes it again after; memledger never appends so. An event id belongs
   * to one stream: ids stored in another stream are the caller's error,
   * which the stores answer differently (PostgreSQL: IdempotencyConflict;
   * EventStoreDB: written again), so memledger derives every event id from
   * its stream and its command (src/commands/ids/command-ids.ts).
   *
   * Atomic per command: consecutive events with the same
   * `metadata.causationId` are written together or not at all. A batch over
   * the store's append limit (EventStoreDB: MaxAppendSize, 1 MiB by default;
   * PostgreSQL has none) is written as consecutive appends cut between
   * commands, each expecting the revision the one before reached; retrying
   * the whole batch with the same expected revision completes one cut off
   * part-way. One command over the limit throws AppendTooLarge and writes
   * nothing of the batch.
   */
  append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult>;
  /** Reads a stream; a stream that does not exist reads as empty. Shows every append that has returned (read your writes). */
  readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]>;
  /** Reads the global log forwards in log order. */
  readAll(options?: ReadAllOptions): Promise<StoredEvent[]>;
  /** readAll's page with how far it examined the log: a reader that wants few of the events keeps its place without reading the others. */
  readPage(options: ReadPageOptions): Promise<ExaminedPage>;
  /**
   * How many events readAll with the same `after` and `filter` returns at or
   * before `upTo`, counted to `limit`. For lag figures (/metrics, projections
   * status): PostgreSQL counts index entries without reading the events;
   * EventStoreDB has no count, so its adapter reads them (count-by-reading.ts).
   */
  countAll(options: CountAllOptions): Promise<number>;
  /** The last position of the global log (undefined when empty). */
  headPosition(): Promise<Position | undefined>;
  /**
   * Resolves once every event committed before the call shows in the global
   * log (readAll, headPosition, subscriptions); throws LogHorizonTimeout after
   * `timeoutMs` (default 30 s). For a reader that must not miss a stream it
   * cannot name, e.g. "every subject of a tenant". EventStoreDB's leader
   * shows a commit at once (the adapter reads from the leader only, never a
   * follower's lagging index); PostgreSQL's stable prefix waits for older
   * transactions.
   */
  awaitCommitted(options?: { readonly timeoutMs?: number }): Promise<void>;
  subscribeAll(options?: SubscribeAllOptions): Subscription;
  close(): Promise<void>;
}

/** The global log did not come to show what was committed before the call in time. */
export class LogHorizonTimeout extends Error {
  override readonly name = 'LogHorizonTimeout';
  readonly code = 'log_behind';
  constructor(readonly waitedMs: number) {
    super(
      `the global log did not show every earlier commit within ${waitedMs} ms: a long transaction elsewhere on the server may be holding it back`,
    );
  }
}

/** The typed error of an expected-revision mismatch. */
export class WrongExpectedVersion extends Error {
  override readonly name = 'WrongExpectedVersion';
  constructor(
    readonly stream: string,
    readonly expected: ExpectedRevision,
    /** The stream's actual last revision, or 'no_stream' when it does not exist. */
    readonly actual: number | 'no_stream',
  ) {
    super(`wrong expected version on ${stream}: expected ${String(expected)}, actual ${String(actual)}`);
  }
}

/** A retried append whose event ids match stored events only in part, or in another place. */
export class IdempotencyConflict extends Error {
  override readonly name = 'IdempotencyConflict';
  constructor(
    readonly stream: string,
    readonly eventId: string,
  ) {
    super(`event ${eventId} is already stored, but not as the same batch in ${stream}`);
  }
}

export function comparePositions(a: Position, b: Position): number {
  if (a.commit !== b.commit) return a.commit < b.commit ? -1 : 1;
  if (a.prepare !== b.prepare) return a.prepare < b.prepare ? -1 : 1;
  return 0;
}

/** Positions as strings for JSON and checkpoint columns: `commit/prepare`. */
export function formatPosition(p: Position): string {
  return `${p.commit}/${p.prepare}`;
}

export function parsePosition(text: string): Position {
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new Error(`not a position: ${text}`);
  return { commit: BigInt(match[1]!), prepare: BigInt(match[2]!) };
}
