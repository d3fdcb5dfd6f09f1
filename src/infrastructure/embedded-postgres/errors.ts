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
