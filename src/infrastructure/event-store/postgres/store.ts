// The PostgreSQL event store (DESIGN section 2): appends in one INSERT
// statement (append.ts), those made at once in one statement and commit
// (grouped-append.ts), reads in log order (log-order.ts), catch-up
// subscriptions woken by LISTEN/NOTIFY (signal.ts, subscription.ts). Stream
// reads see every committed event at once; the global log (readAll,
// headPosition, subscriptions) only its stable prefix.
import type pg from 'pg';
import {
  LogHorizonTimeout,
  type AppendResult,
  type EventStore,
  type ExaminedPage,
  type ExpectedRevision,
  type LogFilter,
  type NewEvent,
  type Position,
  type ReadAllOptions,
  type ReadPageOptions,
  type ReadStreamOptions,
  type CountAllOptions,
  type StoredEvent,
  type SubscribeAllOptions,
  type Subscription,
} from '../port.js';
import { GroupedAppends } from './grouped-append.js';
import { parseAppend, parseCountAll, parseReadAll, parseReadPage, parseReadStream, parseSubscribeAll } from './input.js';
import {
  COUNT_ALL_SQL,
  countAllParams,
  EVENT_COLUMNS,
  HEAD_POSITION_SQL,
  READ_ALL_SQL,
  READ_PAGE_SQL,
  readAllParams,
} from './log-order.js';
import { toPosition, toStoredEvent, type EventRow } from './rows.js';
import { LogSignal } from './signal.js';
import { examinedTo, LogSubscription, type LogPage } from './subscription.js';

type Nullable<T> = { [K in keyof T]: T[K] | null };

const READ_FORWARDS = `select ${EVENT_COLUMNS} from events
  where stream_name = $1 and stream_revision >= $2 order by stream_revision limit $3`;
const READ_BACKWARDS = `select ${EVENT_COLUMNS} from events
  where stream_name = $1 and stream_revision <= $2 order by stream_revision desc limit $3`;

// The target, and whether it is reached already (no transaction in flight: xmin = xmax), in one round trip.
const AWAIT_TARGET_SQL =
  'select pg_snapshot_xmax(s)::text as xmax, pg_snapshot_xmin(s) >= pg_snapshot_xmax(s) as reached from pg_current_snapshot() as s';
const AWAIT_REACHED_SQL = 'select pg_snapshot_xmin(pg_current_snapshot()) >= $1::xid8 as reached';
const AWAIT_POLL_MS = 20;

export class EventStoreClosed extends Error {
  override readonly name = 'EventStoreClosed';
  constructor() {
    super('the event store is closed');
  }
}

export interface PostgresEventStoreOptions {
  /** Connection settings for the store's LISTEN/NOTIFY connection. */
  readonly signalConnection: pg.ClientConfig;
  /** How often a live subscription reads when no notification arrives. */
  readonly pollIntervalMs: number;
  /** The connections grouped appends run their statement on (a plannedOncePool: see grouped-append.ts); default the store's pool. The store ends it. */
  readonly groupPool?: pg.Pool;
}

export class PostgresEventStore implements EventStore {
  readonly #signal: LogSignal;
  readonly #appends: GroupedAppends;
  readonly #subscriptions = new Set<LogSubscription>();
  #closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PostgresEventStoreOptions,
  ) {
    this.#signal = new LogSignal(options.signalConnection);
    this.#appends = new GroupedAppends(pool, options.groupPool ?? pool);
  }

  async append(stream: string, events: readonly NewEvent[], options: { expectedRevision: ExpectedRevision }): Promise<AppendResult> {
    this.#ensureOpen();
    const result = await this.#appends.append(parseAppend(stream, events, options));
    this.#signal.appended(stream);
    return result;
  }

  async readStream(stream: string, options?: ReadStreamOptions): Promise<StoredEvent[]> {
    this.#ensureOpen();
    const input = parseReadStream(stream, options);
    const backwards = input.options.direction === 'backwards';
    const from = input.options.fromRevision ?? (backwards ? Number.MAX_SAFE_INTEGER : 0);
    const { rows } = await this.pool.query<EventRow>({
      name: backwards ? 'event_store_read_backwards' : 'event_store_read_forwards',
      text: backwards ? READ_BACKWARDS : READ_FORWARDS,
      values: [input.stream, from, input.options.maxCount ?? null],
    });
    return rows.map(toStoredEvent);
  }

  async readAll(options?: ReadAllOptions): Promise<StoredEvent[]> {
    this.#ensureOpen();
    const input = parseReadAll(options);
    return this.#readLog(input.after, input.filter, input.maxCount);
  }

  async readPage(options: ReadPageOptions): Promise<ExaminedPage> {
    this.#ensureOpen();
    const input = parseReadPage(options);
    const page = await this.#readPage(input.after, input.filter, input.maxCount);
    return { events: page.events, examinedTo: examinedTo(page, input.after, input.maxCount) };
  }

  async countAll(options: CountAllOptions): Promise<number> {
    this.#ensureOpen();
    const input = parseCountAll(options);
    const { rows } = await this.pool.query<{ count: number }>({
      name: 'event_store_count_all',
      text: COUNT_ALL_SQL,
      values: countAllParams(input),
    });
    return rows[0]!.count;
  }

  async headPosition(): Promise<Position | undefined> {
    this.#ensureOpen();
    const { rows } = await this.pool.query<{ commit_position: string; global_position: string }>(HEAD_POSITION_SQL);
    const row = rows[0];
    return row ? toPosition(row.commit_position, row.global_position) : undefined;
  }

  async awaitCommitted(options: { readonly timeoutMs?: number } = {}): Promise<void> {
    this.#ensureOpen();
    const timeoutMs = options.timeoutMs ?? 30_000;
    // Every transaction committed before now has an xid below this snapshot's xmax; once the oldest running
    // transaction (xmin) is at or past it, they are all below the log's stable cut (log-order.ts).
    const { rows } = await this.pool.query<{ xmax: string; reached: boolean }>(AWAIT_TARGET_SQL);
    if (rows[0]!.reached) return;
    const target = rows[0]!.xmax;
    const started = Date.now();
    for (;;) {
      const reached = await this.pool.query<{ reached: boolean }>(AWAIT_REACHED_SQL, [target]);
      if (reached.rows[0]!.reached) return;
      if (Date.now() - started >= timeoutMs) throw new LogHorizonTimeout(timeoutMs);
      await new Promise((resolve) => setTimeout(resolve, AWAIT_POLL_MS));
    }
  }

  subscribeAll(options?: SubscribeAllOptions): Subscription {
    this.#ensureOpen();
    const input = parseSubscribeAll(options);
    const subscription = new LogSubscription(
      { read: (after, filter, maxCount) => this.#readPage(after, filter, maxCount) },
      this.#signal,
      this.options.pollIntervalMs,
      input.after,
      input.filter,
      (closed) => this.#subscriptions.delete(closed),
    );
    this.#subscriptions.add(subscription);
    return subscription;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#subscriptions].map((subscription) => subscription.close()));
    await this.#signal.close();
    await Promise.all([this.pool.end(), this.options.groupPool?.end()]);
  }

  async #readLog(after: Position | undefined, filter: LogFilter | undefined, maxCount: number | undefined): Promise<StoredEvent[]> {
    const { rows } = await this.pool.query<EventRow>({
      name: 'event_store_read_all',
      text: READ_ALL_SQL,
      values: readAllParams(after, filter, maxCount),
    });
    return rows.map(toStoredEvent);
  }

  async #readPage(after: Position | undefined, filter: LogFilter | undefined, maxCount: number): Promise<LogPage> {
    const { rows } = await this.pool.query<
      Nullable<EventRow> & { pending: boolean; head_commit: string | null; head_prepare: string | null }
    >({
      name: 'event_store_read_page',
      text: READ_PAGE_SQL,
      values: readAllParams(after, filter, maxCount),
    });
    const events = rows.flatMap((row) => (row.event_id === null ? [] : [toStoredEvent(row as EventRow)]));
    const first = rows[0];
    const head = first?.head_commit != null && first.head_prepare != null ? toPosition(first.head_commit, first.head_prepare) : undefined;
    return { events, pending: first?.pending ?? false, ...(head ? { head } : {}) };
  }

  #ensureOpen(): void {
    if (this.#closed) throw new EventStoreClosed();
  }
}
