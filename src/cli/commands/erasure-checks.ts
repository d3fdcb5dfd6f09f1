// What the commands that erase (forget, retention sweep) share: the read
// side's erasure checks, and the exit code of a receipt whose verification
// found the content somewhere.
import { EXIT } from '../../answers/answer-table.js';
import { readSideErasureChecks } from '../../queries/erasure/index.js';
import { catchUpWith, openReadSide, type OpenReadSide } from '../../queries/read-side.js';
import type { OpenLedger } from '../../runtime/open-ledger.js';

/**
 * The read side, for the checks: recall packs with the tokenizer, so it is
 * loaded. beforeVerify(streams) catches the projections up through the last
 * event of those streams; with none named, through every earlier commit.
 */
export async function withChecks<T>(
  ledger: OpenLedger,
  work: (
    read: OpenReadSide,
    options: { checks: ReturnType<typeof readSideErasureChecks>; beforeVerify: (streams: string[]) => () => Promise<void> },
  ) => Promise<T>,
): Promise<T> {
  const read = await openReadSide(ledger, { tokenizer: true });
  const beforeVerify = (streams: string[]) => async () => {
    if (streams.length === 0) await read.eventStore.awaitCommitted();
    await catchUpWith(read, streams);
  };
  try {
    return await work(read, { checks: readSideErasureChecks(read), beforeVerify });
  } finally {
    await read.close();
  }
}

/** Exit 3 when an issued receipt says its verification failed. */
export function failedVerification(receipt: { verification?: { status: string } }): void {
  if (receipt.verification?.status === 'failed') process.exitCode = EXIT.refused;
}
