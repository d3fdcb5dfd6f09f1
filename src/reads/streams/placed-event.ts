// An event a stream's fold keeps the place of (StreamKind.placeOf), read
// alone: what needs one event of a long stream (a memory's sealed fields, a
// candidate's proposal, a summary's switch) never reads the stream for it.
import type { EventStore, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { LoadedStream } from './loaded-stream.js';

/** The event at the place named `name`; undefined when the fold knows no such place (the stream never held that event). */
export async function placedEvent(store: EventStore, loaded: LoadedStream<unknown>, name: string): Promise<StoredEvent | undefined> {
  const place = loaded.places.get(name);
  if (place === undefined) return undefined;
  const [stored] = await store.readStream(loaded.stream, { fromRevision: place, maxCount: 1 });
  return stored;
}
