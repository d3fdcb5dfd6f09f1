// A catch-up subscription on the global log: read pages after the last
// delivered position until the stable end of the log, then wait for a
// NOTIFY wakeup or the poll interval, and read again. Log order guarantees
// (log-order.ts) make "after the last delivered position" exact.
import { comparePositions, type LogFilter, type Position, type StoredEvent, type Subscription } from '../port.js';
import type { LogSignal } from './signal.js';
import { mayConcern } from './wakeup-categories.js';

const PAGE_SIZE = 500;

export interface LogPage {
  readonly events: StoredEvent[];
  /** True when committed events lay beyond the horizon this page was read at (log-order.ts): read again soon. */
  readonly pending: boolean;
  /** The stable log's last position at that horizon: a page that is not full examined everything up to it. */
  readonly head?: Position;
}

/**
 * How far a page read after `after` examined the log: a full page up to its
 * last event, a short one everything up to the head at its horizon (a
 * filtered reader need not look at the events it passed over again).
 */
export function examinedTo(page: LogPage, after: Position | undefined, maxCount: number): Position | undefined {
  const last = page.events.at(-1)?.position;
  if (page.events.length >= maxCount) return last;
  return page.head && (after === undefined || comparePositions(page.head, after) > 0) ? page.head : last;
}

export interface LogReader {
  read(after: Position | undefined, filter: LogFilter | undefined, maxCount: number): Promise<LogPage>;
}

/** First wait when events are pending; doubles up to PENDING_WAIT_MAX_MS (or the poll interval). */
const PENDING_WAIT_MS = 5;
const PENDING_WAIT_MAX_MS = 250;

const CLOSED = Symbol('closed');

export class LogSubscription implements Subscription {
  #closed = false;
  #wakeups = 0;
  #wake: (() => void) | undefined;
  #iterator: AsyncGenerator<StoredEvent> | undefined;
  readonly #stopListening: () => void;

  constructor(
    private readonly log: LogReader,
    private readonly signal: LogSignal,
    private readonly pollIntervalMs: number,
    private readonly after: Position | undefined,
    private readonly filter: LogFilter | undefined,
    private readonly onClose: (subscription: LogSubscription) => void,
  ) {
    this.#stopListening = signal.listen((categories) => {
      // A wakeup for streams this subscriber reads none of is not one (the poll still looks now and then).
      if (!mayConcern(categories, filter)) return;
      this.#wakeups += 1;
      this.#wake?.();
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<StoredEvent> {
    this.#iterator ??= this.#events();
    return this.#iterator;
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    this.#stopListening();
    this.#wake?.();
    this.onClose(this);
    return Promise.resolve();
  }

  async *#events(): AsyncGenerator<StoredEvent> {
    let after = this.after;
    let pendingWait = PENDING_WAIT_MS;
    try {
      while (!this.#closed) {
        const wakeupsBefore = this.#wakeups;
        const listenedBefore = this.signal.listening();
        const read = after;
        const page = await this.#unlessClosed(this.log.read(read, this.filter, PAGE_SIZE));
        if (page === CLOSED) return;
        if (page.events.length > 0) pendingWait = PENDING_WAIT_MS;
        for (const event of page.events) {
          if (this.#closed) return;
          yield event;
          after = event.position;
        }
        after = examinedTo(page, read, PAGE_SIZE) ?? after;
        // A full page, or a wakeup during the read: there may be more already.
        if (page.events.length === PAGE_SIZE || this.#wakeups !== wakeupsBefore) continue;
        if (page.pending) {
          await this.#sleep(pendingWait, wakeupsBefore);
          pendingWait = Math.min(pendingWait * 2, PENDING_WAIT_MAX_MS, this.pollIntervalMs);
        } else if (listenedBefore === undefined || this.signal.listening() !== listenedBefore) {
          // Not listening since before the read: a NOTIFY may have come and gone unheard. Read again once listening.
          await this.#sleep(this.pollIntervalMs, wakeupsBefore, this.signal.whenListening());
        } else {
          pendingWait = PENDING_WAIT_MS;
          await this.#sleep(this.pollIntervalMs, wakeupsBefore);
        }
      }
    } finally {
      await this.close();
    }
  }

  /** A query's result, or CLOSED when the subscription closed meanwhile (its pool may be gone: errors then mean nothing). */
  async #unlessClosed<T>(query: Promise<T>): Promise<T | typeof CLOSED> {
    try {
      const result = await query;
      return this.#closed ? CLOSED : result;
    } catch (error) {
      if (this.#closed) return CLOSED;
      throw error;
    }
  }

  /** Waits `ms`, or less if woken (or `until` settles); returns at once if a wakeup came since `wakeupsBefore` (none is lost). */
  #sleep(ms: number, wakeupsBefore: number, until?: Promise<void>): Promise<void> {
    if (this.#closed || this.#wakeups !== wakeupsBefore) return Promise.resolve();
    this.signal.ensureListening();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      this.#wake = done;
      void until?.then(done);
      function done() {
        clearTimeout(timer);
        resolve();
      }
    }).finally(() => {
      this.#wake = undefined;
    });
  }
}
