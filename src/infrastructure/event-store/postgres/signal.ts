// Wakes subscribers when the log grows: LISTEN/NOTIFY on one connection per
// store. The NOTIFY is sent after the append commits, not inside it: a
// notifying transaction holds a cluster-wide lock through its commit (WAL
// flush included), which would serialize all appends and defeat group commit.
// Notifications are coalesced (at most one in flight per store), and nothing
// depends on them: subscribers also poll, so a lost wakeup only adds latency.
import pg from 'pg';

const CHANNEL = 'memledger_event_log';

export class LogSignal {
  #connection: Promise<pg.Client> | undefined;
  #listeners = new Set<() => void>();
  #pending = false;
  #sending = false;
  #closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  /** Call after an append commits. */
  appended(): void {
    this.#pending = true;
    if (!this.#sending && !this.#closed) void this.#send();
  }

  /** Calls `listener` on every wakeup until the returned function is called. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    this.ensureListening();
    return () => this.#listeners.delete(listener);
  }

  /** (Re)connects the listening connection if it was lost; failures are left to polling. */
  ensureListening(): void {
    if (!this.#closed) this.#connect().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listeners.clear();
    const connection = this.#connection;
    this.#connection = undefined;
    if (connection) await connection.then((client) => client.end()).catch(() => undefined);
  }

  async #send(): Promise<void> {
    this.#sending = true;
    try {
      while (this.#pending && !this.#closed) {
        this.#pending = false;
        const client = await this.#connect();
        await client.query(`notify ${CHANNEL}`);
      }
    } catch {
      // Subscribers poll; the next append tries again on a fresh connection.
    } finally {
      this.#sending = false;
    }
  }

  #connect(): Promise<pg.Client> {
    if (this.#closed) return Promise.reject(new Error('the event store is closed'));
    if (!this.#connection) {
      const connection = this.#open(() => {
        if (this.#connection === connection) this.#connection = undefined;
      });
      this.#connection = connection;
    }
    return this.#connection;
  }

  async #open(lost: () => void): Promise<pg.Client> {
    const client = new pg.Client(this.config);
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', () => this.#listeners.forEach((listener) => listener()));
    try {
      await client.connect();
      await client.query(`listen ${CHANNEL}`);
      return client;
    } catch (error) {
      lost();
      await client.end().catch(() => undefined);
      throw error;
    }
  }
}
