// Cutting a batch into appends the server accepts. EventStoreDB refuses an
// append whose events add up to more than MaxAppendSize (1 MiB by default),
// counting each as Event.SizeOnDisk: data + metadata + 2 x the type's length
// (EventStore.Core Streams.Append.cs / Streams.BatchAppend.cs, Data/Event.cs).
// The port keeps a command's events together (same causationId, in a row),
// so cuts fall between commands only.
import { AppendTooLarge } from '../store-errors.js';

/** An event as it goes on the wire: the JSON the client will send. */
export interface WireEvent {
  readonly id: string;
  readonly type: string;
  readonly data: unknown;
  readonly metadata: { readonly causationId?: string | undefined };
}

export const DEFAULT_MAX_APPEND_BYTES = 1024 * 1024;

/** The bytes the server counts for an event (the client sends data and metadata as JSON in UTF-8). */
export function sizeOnDisk(event: WireEvent): number {
  return Buffer.byteLength(JSON.stringify(event.data)) + Buffer.byteLength(JSON.stringify(event.metadata)) + event.type.length * 2;
}

/** Runs of events that must be written together: the events of one command (an event naming none stands alone). */
function commands<E extends WireEvent>(events: readonly E[]): E[][] {
  const runs: E[][] = [];
  for (const event of events) {
    const run = runs[runs.length - 1];
    const command = event.metadata.causationId;
    if (run && command !== undefined && run[0]!.metadata.causationId === command) run.push(event);
    else runs.push([event]);
  }
  return runs;
}

/** Consecutive parts of at most `limit` bytes each; AppendTooLarge (before anything is sent) when one command alone is over it. */
export function appendParts<E extends WireEvent>(stream: string, events: readonly E[], limit: number): E[][] {
  const parts: E[][] = [];
  let part: E[] = [];
  let bytes = 0;
  for (const run of commands(events)) {
    const size = run.reduce((sum, event) => sum + sizeOnDisk(event), 0);
    if (size > limit) throw new AppendTooLarge(stream, run[0]!.id, size, limit);
    if (bytes + size > limit && part.length > 0) {
      parts.push(part);
      part = [];
      bytes = 0;
    }
    part.push(...run);
    bytes += size;
  }
  if (part.length > 0) parts.push(part);
  return parts;
}
