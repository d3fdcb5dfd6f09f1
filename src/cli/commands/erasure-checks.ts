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
    options: {
      checks: ReturnType<typeof readSideErasureChecks>;
      beforeVerify: (streams: string[]) => (stream?: string) => Promise<void>;
    },
  ) => Promise<T>,
): Promise<T> {
  const read = await openReadSide(ledger, { tokenizer: true });
  // `stream`: the subject an erasure verifies now (a promoted copy's is not among `streams`).
  const beforeVerify = (streams: string[]) => async (stream?: string) => {
    const through = stream === undefined || streams.length === 0 ? streams : [...new Set([...streams, stream])];
    if (through.length === 0) await read.eventStore.awaitCommitted();
    await catchUpWith(read, through);
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
