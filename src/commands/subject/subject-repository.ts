// Loads folded subject streams. A long-lived process keeps each folded state
// with its revision and reads only what is newer, so a command's cost does not
// grow with the stream's length.
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { emptySubject, foldInto, type LoadedSubject } from './loaded-subject.js';

const PAGE = 4096;

export class SubjectRepository {
  private readonly cache = new Map<string, LoadedSubject>();

  constructor(
    private readonly store: EventStore,
    /** Streams kept folded in memory (least recently used are dropped). */
    private readonly capacity = 10_000,
  ) {}

  async load(stream: string): Promise<LoadedSubject> {
    let loaded = this.cache.get(stream) ?? emptySubject(stream);
    for (;;) {
      const events = await this.store.readStream(stream, { fromRevision: loaded.revision + 1, maxCount: PAGE });
      loaded = foldInto(loaded, events);
      if (events.length < PAGE) break;
    }
    this.remember(loaded);
    return loaded;
  }

  private remember(loaded: LoadedSubject): void {
    this.cache.delete(loaded.stream);
    this.cache.set(loaded.stream, loaded);
    if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
  }
}
