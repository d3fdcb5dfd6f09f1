// Wakes subscribers when the log grows: LISTEN/NOTIFY on one connection per
// store. The NOTIFY is sent after the append commits, not inside it: a
// notifying transaction holds a cluster-wide lock through its commit (WAL
// flush included), which would serialize all appends and defeat group commit.
// Notifications are coalesced (at most one per NOTIFY_INTERVAL_MS per store,
// the first one at once), and nothing depends on them: subscribers also poll,
// so a lost wakeup only adds latency. Each NOTIFY names the categories of
// the streams appended since the last (wakeup-categories.ts), so that a
// subscriber that reads none of them stays asleep.
import pg from 'pg';
import { setTimeout as delay } from 'node:timers/promises';
import { decodeCategories, encodeCategories, streamCategory } from './wakeup-categories.js';

/** Called on every wakeup with the categories it names (undefined: it could concern any stream). */
export type WakeupListener = (categories: ReadonlySet<string> | undefined) => void;

const CHANNEL = 'memledger_event_log';
const NOTIFY_INTERVAL_MS = 20;

export class LogSignal {
  #connection: Promise<pg.Client> | undefined;
  #listeners = new Set<WakeupListener>();
  #listening = new WeakMap<pg.Client, boolean>();
  #pending = false;
  /** The categories appended since the last NOTIFY. */
  readonly #categories = new Set<string>();
  #sending = false;
  #lastSent = 0;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;
  /** Counts LISTENs that took effect; the current one while listening, else undefined. */
  #listens = 0;
  #listeningSince: number | undefined;
  #onListening = new Set<() => void>();

  constructor(private readonly config: pg.ClientConfig) {}

  /** Call after an append to `stream` commits. */
  appended(stream: string): void {
    this.#categories.add(streamCategory(stream));
    this.#pending = true;
    if (!this.#sending && !this.#closed) void this.#send();
  }

  /** Calls `listener` on every wakeup until the returned function is called. */
  listen(listener: WakeupListener): () => void {
    this.#listeners.add(listener);
    this.ensureListening();
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) void this.#setListening(false);
    };
  }

  /** (Re)connects and LISTENs if there are listeners; failures are left to polling. */
  ensureListening(): void {
    if (!this.#closed && this.#listeners.size > 0) void this.#setListening(true);
  }

  /**
   * Which LISTEN is in effect (undefined: none). A subscriber may sleep long
   * only if the same LISTEN was in effect before its last read began: else a
   * NOTIFY sent in between was lost.
   */
  listening(): number | undefined {
    return this.#listeningSince;
  }

  /** Resolves once a LISTEN takes effect (or the signal closes); does not start one (see ensureListening). */
  whenListening(): Promise<void> {
    if (this.#listeningSince !== undefined || this.#closed) return Promise.resolve();
    return new Promise((resolve) => this.#onListening.add(resolve));
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    this.#listened(undefined);
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection) await connection.then((client) => client.end()).catch(() => undefined);
  }

  async #send(): Promise<void> {
    this.#sending = true;
    try {
      while (this.#pending && !this.#closed) {
        const wait = this.#lastSent + NOTIFY_INTERVAL_MS - Date.now();
        if (wait > 0) await delay(wait, undefined, { ref: false });
        this.#pending = false;
        const payload = encodeCategories(this.#categories);
        this.#categories.clear();
        await this.#query('select pg_notify($1, $2)', [CHANNEL, payload]);
        this.#lastSent = Date.now();
      }
    } catch {
      // Subscribers poll; the next append tries again on a fresh connection.
    } finally {
      this.#sending = false;
    }
  }

  // Only a store with subscribers LISTENs: every listening session is woken
  // by every NOTIFY on the server, which costs appenders nothing but costs
  // the server a wakeup per listener.
  async #setListening(wanted: boolean): Promise<void> {
    try {
      const client = await this.#connect();
      if (this.#listening.get(client) === wanted) return;
      this.#listening.set(client, wanted);
      if (!wanted) this.#listened(undefined);
      await this.#query(wanted ? `listen ${CHANNEL}` : `unlisten ${CHANNEL}`);
      if (wanted && this.#connection !== undefined && (await this.#connection) === client) this.#listened((this.#listens += 1));
    } catch {
      // Subscribers poll.
    }
  }

  #listened(since: number | undefined): void {
    this.#listeningSince = since;
    if (since === undefined && !this.#closed) return;
    const waiting = [...this.#onListening];
    this.#onListening.clear();
    for (const resolve of waiting) resolve();
  }

  /** One statement at a time on the signal connection. */
  #query(text: string, values?: unknown[]): Promise<void> {
    const run = this.#queue.then(async () => {
      await (await this.#connect()).query(text, values);
    });
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #connect(): Promise<pg.Client> {
    if (this.#closed) return Promise.reject(new Error('the event store is closed'));
    if (!this.#connection) {
      const connection = this.#open(() => {
        if (this.#connection !== connection) return;
        this.#connection = undefined;
        this.#listened(undefined);
      });
      this.#connection = connection;
    }
    return this.#connection;
  }

  async #open(lost: () => void): Promise<pg.Client> {
    const client = new pg.Client(this.config);
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => {
      const categories = decodeCategories(message.payload);
      this.#listeners.forEach((listener) => listener(categories));
    });
    try {
      await client.connect();
      return client;
    } catch (error) {
      lost();
      await client.end().catch(() => undefined);
      throw error;
    }
  }
}
