// memledger reads its own writes, so every call goes to the leader: a
// follower serves reads from its own index, which lags the leader's (and
// awaitCommitted waits for nothing on EventStoreDB). With `requires-leader`
// a follower refuses the call with NotLeader and the leader's address
// (ClusterVNodeController.HandleAsNonLeader; a refused write is not
// written); the client then reconnects there (Client.handleError), and the
// call is made again.
import { NotLeaderError } from '@eventstore/db-client';
import { setTimeout as sleep } from 'node:timers/promises';

/** The client's call options that send `requires-leader: true`. */
export const ON_LEADER = { requiresLeader: true } as const;

const ATTEMPTS = 5;
const PAUSE_MS = 20;

/** Makes the call again while a node answers NotLeader (the client switches to the named leader in between). */
export async function onLeader<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!(error instanceof NotLeaderError) || attempt >= ATTEMPTS) throw error;
      // The client closes the refusing channel asynchronously (on the call's end); let it.
      await sleep(PAUSE_MS * attempt);
    }
  }
}
