// What a refused append means in the port's words, and the port's expected
// revision in the client's.
import { ANY, NO_STREAM, STREAM_EXISTS, type AppendExpectedRevision, type WrongExpectedVersionError } from '@eventstore/db-client';
import { IdempotencyConflict, WrongExpectedVersion, type ExpectedRevision, type StoredEvent } from '../port.js';
import type { AppendInput } from '../postgres/input.js';

/**
 * EventStoreDB answers a retry that matches a stored batch only in part
 * ("corrupted idempotency") with WrongExpectedVersion too; the port calls
 * that IdempotencyConflict. With `any` / `stream_exists` on an existing
 * stream, the server only refuses for that reason; with a revision, it does
 * when the batch's first event is the one already stored after it.
 */
export async function appendConflict(
  input: AppendInput,
  error: WrongExpectedVersionError,
  readAt: (stream: string, revision: number) => Promise<StoredEvent | undefined>,
): Promise<Error> {
  const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
  const expected = input.expectedRevision;
  const firstId = input.events[0]!.id;
  const wrongVersion = new WrongExpectedVersion(input.stream, expected, actual);
  if (actual === 'no_stream') return wrongVersion;
  if (expected === 'any' || expected === 'stream_exists') return new IdempotencyConflict(input.stream, firstId);
  const following = expected === 'no_stream' ? 0 : expected + 1;
  if (following > actual) return wrongVersion;
  const stored = await readAt(input.stream, following);
  return stored?.id === firstId ? new IdempotencyConflict(input.stream, firstId) : wrongVersion;
}

export function toClientRevision(expected: ExpectedRevision): AppendExpectedRevision {
  if (expected === 'any') return ANY;
  if (expected === 'no_stream') return NO_STREAM;
  if (expected === 'stream_exists') return STREAM_EXISTS;
  return BigInt(expected);
}
