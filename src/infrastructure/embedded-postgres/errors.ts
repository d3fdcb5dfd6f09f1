// Failures of the embedded PostgreSQL server, with the end of its log so the
// cause is visible without opening the data folder.
export class EmbeddedServerError extends Error {
  override readonly name = 'EmbeddedServerError';
  readonly code = 'embedded_server_failed';

  constructor(
    message: string,
    readonly dataDir: string,
    readonly logTail = '',
    options?: { cause?: unknown },
  ) {
    super(logTail ? `${message}\n--- end of ${dataDir}/postgres.log ---\n${logTail}` : message, options);
  }
}

/** The embedded server died and could not be started again yet (its port is taken, its old processes are still exiting…). */
export class EmbeddedServerNotBack extends Error {
  override readonly name = 'EmbeddedServerNotBack';
  /** Answered like any other outage of the database: 503 / exit 1, retry shortly. */
  readonly code = 'database_unavailable';
  constructor(
    readonly dataDir: string,
    readonly reason: string,
  ) {
    super(`the embedded PostgreSQL of ${dataDir} is down and could not be started again yet (${reason.replaceAll('_', ' ')})`);
  }
}
