// An append the store could not confirm (AppendOutcomeUnknown: a timeout, a
// lost connection) may have been written. The very same append — the same
// event ids, the same expected revision — is idempotent on both stores at
// any age, so it is sent again: the answer is the original result, whether
// the first attempt landed or not. EventStoreDB drops a retry that arrives
// while the first attempt is still replicating, and it times out in turn:
// hence a few tries, with pauses that grow.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  AppendOutcomeUnknown,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewEvent,
} from '../../infrastructure/event-store/port.js';

const ATTEMPTS = 6;
const PAUSE_MS = 100;

export async function appendSettled(
  store: EventStore,
  stream: string,
  events: readonly NewEvent[],
  options: { readonly expectedRevision: ExpectedRevision },
): Promise<AppendResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await store.append(stream, events, { expectedRevision: options.expectedRevision });
    } catch (error) {
      if (!(error instanceof AppendOutcomeUnknown) || attempt >= ATTEMPTS) throw error;
      await sleep(PAUSE_MS * attempt);
    }
  }
}
