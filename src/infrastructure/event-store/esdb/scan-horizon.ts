// How far earlier reads of $all got for a filter. A reader that polls with
// the same `after` (a worker waiting for work) would have the server scan
// the same unrelated events again and again; once a read has shown that no
// event of a filter lies in (from, to], the next read after any position in
// that range starts at `to`, so a poll costs the events that are new.
import { comparePositions, type Position } from '../port.js';

interface Horizon {
  /** Exclusive; undefined = the start of the log. */
  readonly from: Position | undefined;
  readonly to: Position;
}

/** Filters remembered (least recently used are dropped). */
const CAPACITY = 64;

export class ScanHorizons {
  private readonly known = new Map<string, Horizon>();

  /** Where a read of `filter` strictly after `after` may start: `after`, or further when nothing matches in between. */
  startAfter(filter: string, after: Position | undefined): Position | undefined {
    const horizon = this.known.get(filter);
    if (!horizon) return after;
    const fromReached = horizon.from === undefined || (after !== undefined && comparePositions(horizon.from, after) <= 0);
    const beforeTo = after === undefined || comparePositions(after, horizon.to) < 0;
    return fromReached && beforeTo ? horizon.to : after;
  }

  /** Records that no event of `filter` lies in (from, to]. */
  record(filter: string, from: Position | undefined, to: Position): void {
    this.known.delete(filter);
    this.known.set(filter, { from, to });
    if (this.known.size > CAPACITY) this.known.delete(this.known.keys().next().value!);
  }
}
