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

/**
 * The store did not say whether an append was written (a timeout, a lost
 * connection). Retryable: the same events with the same expected revision
 * are idempotent, so sending them again answers with the original result
 * whether the first attempt landed or not.
 */
export class AppendOutcomeUnknown extends Error {
  override readonly name = 'AppendOutcomeUnknown';
  readonly code = 'append_outcome_unknown';
  readonly retryable = true;
  constructor(
    readonly stream: string,
    override readonly cause: unknown,
  ) {
    super(`the event store did not confirm the append to ${stream} (${describe(cause)}); it may have been written: retry it as it was`);
  }
}

/** The store could not serve a call (not ready, no leader reachable, unavailable); nothing was written. Retryable. */
export class EventStoreUnavailable extends Error {
  override readonly name = 'EventStoreUnavailable';
  readonly code = 'event_store_unavailable';
  readonly retryable = true;
  constructor(
    readonly operation: string,
    override readonly cause: unknown,
  ) {
    super(`the event store could not serve ${operation} (${describe(cause)}); try again`);
  }
}

/** The store refused the call to the credentials it was given (EventStoreDB ACLs); a deployment matter, not retryable. */
export class EventStoreAccessDenied extends Error {
  override readonly name = 'EventStoreAccessDenied';
  readonly code = 'event_store_access_denied';
  constructor(readonly operation: string) {
    super(`the event store denied ${operation} to memledger's credentials (EventStoreDB ACLs: memledger reads $all and its own streams)`);
  }
}

/** The stream was deleted in the store (by something other than memledger, which never deletes streams). */
export class StreamDeleted extends Error {
  override readonly name = 'StreamDeleted';
  readonly code = 'stream_deleted';
  constructor(readonly stream: string) {
    super(`stream ${stream} was deleted in the event store`);
  }
}

function describe(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  return cause.message ? `${cause.constructor.name}: ${cause.message}` : cause.constructor.name;
}
