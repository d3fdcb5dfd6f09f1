// The event store with its appends timed into the append-latency histogram.
// Everything else passes through unchanged.
import type { Histogram } from 'prom-client';
import { SUBJECT_STREAM_PREFIX } from '../../domain/events/stream-names.js';
import { WrongExpectedVersion, type EventStore } from '../../infrastructure/event-store/port.js';

export function timedEventStore(store: EventStore, histogram: Histogram<'stream' | 'outcome'>): EventStore {
  return {
    async append(stream, events, options) {
      const end = histogram.startTimer({ stream: stream.startsWith(SUBJECT_STREAM_PREFIX) ? 'subject' : 'artifact' });
      try {
        const result = await store.append(stream, events, options);
        end({ outcome: 'ok' });
        return result;
      } catch (error) {
        end({ outcome: error instanceof WrongExpectedVersion ? 'wrong_expected_version' : 'error' });
        throw error;
      }
    },
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    readPage: (options) => store.readPage(options),
    headPosition: () => store.headPosition(),
    awaitCommitted: (options) => store.awaitCommitted(options),
    subscribeAll: (options) => store.subscribeAll(options),
    close: () => store.close(),
  };
}
