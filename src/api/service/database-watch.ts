// The service's view of its database: asked every interval (and by /healthz
// and /readyz in between), it records whether the database answers and logs
// each change. While it does not, the watch asks the ledger to revive it (the
// embedded server is started again on its port; a configured database is left
// to its operator), and requests meanwhile answer 503 (see problem.ts). Pools
// reconnect on their own once it answers again.
import { setTimeout as pause } from 'node:timers/promises';
import type { Logger } from 'pino';

export type DatabaseState = 'up' | 'down';

export interface DatabaseWatchOptions {
  /** Throws when the database does not answer. */
  readonly ping: () => Promise<void>;
  /** Brings the database back if memledger runs it (true: it was started again); throws while it cannot. */
  readonly revive: () => Promise<boolean>;
  readonly logger: Logger;
  readonly intervalMs: number;
}

export class DatabaseWatch {
  #state: DatabaseState = 'up';

  constructor(private readonly options: DatabaseWatchOptions) {}

  get state(): DatabaseState {
    return this.#state;
  }

  /** One check: ping, and on failure one attempt to revive. */
  async check(): Promise<DatabaseState> {
    try {
      await this.options.ping();
      if (this.#state === 'down') this.options.logger.info('the database answers again');
      this.#state = 'up';
    } catch (error) {
      if (this.#state === 'up') this.options.logger.error({ err: error }, 'the database does not answer; requests get 503 until it does');
      this.#state = 'down';
      await this.options.revive().then(
        (restarted) => restarted && this.options.logger.warn('the embedded database server died and was started again'),
        (reviveError: unknown) => this.options.logger.warn({ err: reviveError }, 'the database is still down'),
      );
    }
    return this.#state;
  }

  async run(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      await this.check();
      await pause(this.options.intervalMs, undefined, { signal }).catch(() => undefined);
    }
  }
}
