// The port's errors for what the store itself refuses or cannot answer
// (re-exported by port.ts). Each has a `code` for the CLI and the HTTP API.

/** One piece of an append that must stay whole is over the store's append limit; nothing was written. */
export class AppendTooLarge extends Error {
  override readonly name = 'AppendTooLarge';
  readonly code = 'append_too_large';
  constructor(
    readonly stream: string,
    /** The first event of the piece (a command's events stay together). */
    readonly eventId: string,
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(
      `an append to ${stream} needs ${bytes} bytes in one piece (from event ${eventId}: the events of one command stay together), over the store's limit of ${limit} bytes`,
    );
  }
}
