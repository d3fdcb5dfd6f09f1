// A real event store whose reads of one stream are noted (their options), to
// hold a command to the events it reads: what reads one event at its place
// must not read the stream from its start.
import type { EventStore, ReadStreamOptions } from '../../src/infrastructure/event-store/port.js';

export type NotedRead = ReadStreamOptions;

/** `real`, with every readStream of `stream` pushed to `reads`; every other call goes to `real` as it is. */
export function countingReads(real: EventStore, stream: string, reads: NotedRead[]): EventStore {
  return new Proxy(real, {
    get: (target, property: keyof EventStore) =>
      property === 'readStream'
        ? (name: string, options?: ReadStreamOptions) => (name === stream && reads.push({ ...options }), target.readStream(name, options))
        : typeof target[property] === 'function'
          ? (target[property] as (...args: unknown[]) => unknown).bind(target)
          : target[property],
  });
}
