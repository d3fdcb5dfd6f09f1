// A clock for tests of commit times: real time, a millisecond further at
// every reading (so events stamped one by one straddle milliseconds, as a
// batch can on a server), and stepped back on demand (an NTP step, a
// failover to a node whose clock is behind).
export class SteppingClock {
  private offset = 0;
  private readings = 0;

  /** Milliseconds since the Unix epoch. */
  readonly now = (): number => Date.now() + this.offset + this.readings++;

  readonly date = (): Date => new Date(this.now());

  stepBack(ms: number): void {
    this.offset -= ms;
  }
}
