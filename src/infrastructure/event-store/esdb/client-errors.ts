// The client's errors as the port's. What the server answers (RpcExceptions /
// Status in EventStore.Core's gRPC transport) reaches the client as these
// classes (CommandError.js: by the `exception` trailer or the packed
// details); a timeout of a write means its outcome is unknown.
import {
  AccessDeniedError,
  CancelledError,
  DeadlineExceededError,
  NotLeaderError,
  StreamDeletedError,
  TimeoutError,
  UnavailableError,
  UnknownError,
} from '@eventstore/db-client';
import { AppendOutcomeUnknown, EventStoreAccessDenied, EventStoreUnavailable, StreamDeleted } from '../store-errors.js';

/** BatchAppend answers NotHandled(NotReady / TooBusy) with a status the client cannot place (Streams.BatchAppend.cs). */
const NOT_SERVING = /Server Is (Not Ready|Too Busy|Busy)/;

export interface CallSite {
  /** What was asked, for the message: "an append to memory-t/s", "a read of $all". */
  readonly operation: string;
  /** The stream appended to, when the call was an append. */
  readonly appendTo?: string;
}

export function portError(error: unknown, site: CallSite): unknown {
  if (error instanceof AccessDeniedError) return new EventStoreAccessDenied(site.operation);
  if (error instanceof StreamDeletedError) return new StreamDeleted(error.streamName || site.appendTo || site.operation);
  // NotLeader reaches here only when the leader could not be found again and again; nothing was written.
  if (error instanceof NotLeaderError) return new EventStoreUnavailable(site.operation, error);
  const unknownOutcome =
    error instanceof TimeoutError ||
    error instanceof DeadlineExceededError ||
    error instanceof UnavailableError ||
    error instanceof CancelledError ||
    (error instanceof UnknownError && NOT_SERVING.test(error.message));
  if (!unknownOutcome) return error;
  return site.appendTo !== undefined ? new AppendOutcomeUnknown(site.appendTo, error) : new EventStoreUnavailable(site.operation, error);
}

/** Runs a call, handing on the client's errors as the port's. */
export async function asPortErrors<T>(site: CallSite, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw portError(error, site);
  }
}
