// recordedAt on EventStoreDB. The server stamps each event as its prepare is
// written, with the leader's clock (LogRecord.Prepare: DateTime.UtcNow per
// record), so one batch can straddle a millisecond, and stamps step back
// after a failover or a clock step; "as of T" would then show half a batch,
// and replay (which stops at the first event after T) would disagree with
// asOf. So the adapter stamps an append itself, once: the writer's clock,
// raised to the stream's previous recordedAt when the clock is behind it,
// carried in the events' metadata under RECORDED_AT. Events without it
// (written by something else) fall back to the server's stamp.
import { z } from 'zod';

/** The metadata key the adapter keeps recordedAt under (not part of the port's EventMetadata). */
export const RECORDED_AT = '$recordedAt';

const stamp = z.iso.datetime({ precision: 3 });

/** The adapter's recordedAt of a stored event, if it carries one. */
export function recordedAtOf(metadata: unknown): Date | undefined {
  const value = (metadata as Record<string, unknown> | null | undefined)?.[RECORDED_AT];
  return stamp.safeParse(value).success ? new Date(value as string) : undefined;
}

/** Streams remembered (least recently used are dropped); a miss costs one read of the stream's last event. */
const CAPACITY = 10_000;

/** The last recordedAt seen per stream, from this store's own reads and appends. */
export class StreamTimes {
  private readonly last = new Map<string, { readonly revision: number; readonly at: number }>();

  constructor(private readonly clock: () => number) {}

  /** Notes the recordedAt of a stream's event (only the latest revision is kept). */
  saw(stream: string, revision: number, at: Date): void {
    const known = this.last.get(stream);
    if (known && known.revision > revision) return;
    this.last.delete(stream);
    this.last.set(stream, { revision, at: at.getTime() });
    if (this.last.size > CAPACITY) this.last.delete(this.last.keys().next().value!);
  }

  /** The recordedAt of the stream's event at `revision`, if this store saw it. */
  at(stream: string, revision: number): Date | undefined {
    const known = this.last.get(stream);
    return known?.revision === revision ? new Date(known.at) : undefined;
  }

  /** The instant for a new append: now (to the millisecond), but never before `previous`. */
  next(previous: Date | undefined): Date {
    const now = Math.floor(this.clock());
    return new Date(previous === undefined ? now : Math.max(now, previous.getTime()));
  }
}
