// The event store as the service sees it: its appends timed into the
// append-latency histogram, or watched by a callback once they are stored.
// Everything else passes through unchanged.
import type { Histogram } from 'prom-client';
import { RECALL_STREAM_PREFIX, SUBJECT_STREAM_PREFIX } from '../../domain/events/stream-names.js';
import { WrongExpectedVersion, type EventStore } from '../../infrastructure/event-store/port.js';

/** `store` with its append replaced; every other call passes through. */
function withAppend(store: EventStore, append: EventStore['append']): EventStore {
  return {
    append,
    readStream: (stream, options) => store.readStream(stream, options),
    readAll: (options) => store.readAll(options),
    readPage: (options) => store.readPage(options),
    countAll: (options) => store.countAll(options),
    headPosition: () => store.headPosition(),
    awaitCommitted: (options) => store.awaitCommitted(options),
    subscribeAll: (options) => store.subscribeAll(options),
    close: () => store.close(),
  };
}

/** The histogram's stream label: subject streams, recall records, and the rest (artifacts, policies). */
const streamLabel = (stream: string) =>
  stream.startsWith(SUBJECT_STREAM_PREFIX) ? 'subject' : stream.startsWith(RECALL_STREAM_PREFIX) ? 'recall' : 'artifact';

/** `histogram`: the service's, or what stands for it on another thread (its startTimer alone is used). */
export function timedEventStore(store: EventStore, histogram: Pick<Histogram<'stream' | 'outcome'>, 'startTimer'>): EventStore {
  return withAppend(store, async (stream, events, options) => {
    const end = histogram.startTimer({ stream: streamLabel(stream) });
    try {
      const result = await store.append(stream, events, options);
      end({ outcome: 'ok' });
      return result;
    } catch (error) {
      end({ outcome: error instanceof WrongExpectedVersion ? 'wrong_expected_version' : 'error' });
      throw error;
    }
  });
}

/** `store`, calling `appended` with each batch it stored (the events as appended: nothing is read back). */
export function watchedEventStore(store: EventStore, appended: (events: Parameters<EventStore['append']>[1]) => void): EventStore {
  return withAppend(store, async (stream, events, options) => {
    const result = await store.append(stream, events, options);
    appended(events);
    return result;
  });
}
