// Every connection pool memledger opens. Two things pg.Pool does not do:
//
// - A connection the server drops (a restart, a kill, pg_terminate_backend)
//   emits 'error' on its client. pg.Pool listens only while the client is
//   idle; a checked-out client has no listener, and an 'error' event without
//   one kills the process. Here every client always has one: the query on it
//   fails instead, and the pool opens a fresh connection for the next one.
// - pg.Pool's end() resolves as soon as it has asked its clients to end, with
//   their sockets still open. Whoever stops the server next (the last user of
//   the embedded server) would then hit them with "terminating connection due
//   to administrator command" (57P01) after the command's answer. Here end()
//   resolves once every connection is closed.
// - pg.Pool's query() closes the connection after any error, also one the
//   server answered on a healthy connection (a unique violation: two appends
//   racing for one stream's revision). Each then cost a new backend (fork,
//   authentication, catalog caches, every named statement prepared again):
//   a loaded run of concurrent recalls opened 114 connections in 20 s. Here
//   a statement's ERROR leaves its connection in the pool; anything else (a
//   FATAL, a lost socket, a timeout) still closes it.
// And a connection that does not come up within CONNECT_TIMEOUT_MS fails,
// instead of holding its request for as long as the network lets it hang.
import pg from 'pg';

const CONNECT_TIMEOUT_MS = 10_000;

export class Pool extends pg.Pool {
  readonly #open = new Set<pg.Client>();
  readonly #closed = new Set<() => void>();

  constructor(config: pg.PoolConfig) {
    super({ connectionTimeoutMillis: CONNECT_TIMEOUT_MS, ...config });
    // Errors of idle clients: the pool has already dropped the client.
    this.on('error', () => undefined);
    // As pg.Pool's query, but a connection whose statement the server refused with an ERROR goes back to the pool (see
    // above). Assigned, not overridden, to keep pg.Pool's overloads; callbacks and submittables (cursors) take its way.
    const query = this.query.bind(this) as (...args: unknown[]) => unknown;
    this.query = ((...args: unknown[]) => {
      const [config, values] = args;
      if (args.some((arg) => typeof arg === 'function') || isSubmittable(config) || isSubmittable(values)) return query(...args);
      return this.#keptQuery(config as string | pg.QueryConfig, values as unknown[] | undefined);
    }) as pg.Pool['query'];
    this.on('connect', (client: pg.PoolClient) => {
      client.on('error', () => undefined);
      this.#open.add(client);
      client.once('end', () => {
        this.#open.delete(client);
        if (this.#open.size === 0) for (const resolve of this.#closed) resolve();
      });
    });
  }

  async #keptQuery(config: string | pg.QueryConfig, values: unknown[] | undefined): Promise<pg.QueryResult> {
    const client = await this.connect();
    try {
      const result = await client.query(config, values);
      client.release();
      return result;
    } catch (error) {
      client.release(answeredOnLiveConnection(error) ? undefined : (error as Error));
      throw error;
    }
  }

  /** Resolves once every connection of the pool is closed. */
  override end(): Promise<void>;
  override end(callback: () => void): void;
  override end(callback?: () => void): Promise<void> | void {
    const ended = super.end().then(() => this.#allClosed());
    if (!callback) return ended;
    void ended.then(callback, callback);
  }

  #allClosed(): Promise<void> {
    if (this.#open.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.#closed.delete(done);
        resolve();
      };
      this.#closed.add(done);
    });
  }
}

const isSubmittable = (value: unknown): boolean =>
  typeof value === 'object' && value !== null && typeof (value as { submit?: unknown }).submit === 'function';

/** An ERROR the server sent for one statement: the session goes on (a FATAL or PANIC ends it). */
function answeredOnLiveConnection(error: unknown): boolean {
  return error instanceof pg.DatabaseError && error.severity === 'ERROR';
}
