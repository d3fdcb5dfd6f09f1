// Failures a test asks the double for, answered as the server answers them
// (statuses.ts). The next append or read takes the next fault of its kind.
//
// `timeout` with `written`: the write lands, but the client hears a timeout
// (the commit outran PrepareTimeout / CommitTimeout). Until `inFlightMs` has
// passed, a retry of it finds its ids pre-committed but not yet indexed
// (IndexWriter.CheckCommit: CommitDecision.IdempotentNotReady), which the
// server drops ("just drop the write and wait for the client to retry",
// StorageWriterService), so the retry times out too. Simplification: the
// double's reads show the write at once, a leader's only once it is indexed.
export type Fault =
  | { readonly answer: 'timeout'; readonly written?: boolean; readonly inFlightMs?: number }
  | { readonly answer: 'not-ready' | 'access-denied' | 'stream-deleted' };

export class Faults {
  private readonly appends: Fault[] = [];
  private readonly reads: Fault[] = [];

  failNextAppend(fault: Fault): void {
    this.appends.push(fault);
  }

  /** Reads only: a `timeout` there is the server not answering in time. */
  failNextRead(fault: Fault): void {
    this.reads.push(fault);
  }

  takeAppend(): Fault | undefined {
    return this.appends.shift();
  }

  takeRead(): Fault | undefined {
    return this.reads.shift();
  }
}
