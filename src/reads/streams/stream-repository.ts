// Loads folded streams of one kind. A long-lived process keeps each folded
// state with its revision and reads only what is newer, so a command's cost
// does not grow with the stream's length.
import type { DomainEvent } from '../../domain/events/catalog.js';
import type { EventStore, StoredEvent } from '../../infrastructure/event-store/port.js';
import { emptyStream, foldInto, type LoadedStream } from './loaded-stream.js';
import type { StreamKind } from './stream-kind.js';

const PAGE = 4096;

export class StreamRepository<State, Command, Event extends DomainEvent, Decision = never> {
  private readonly cache = new Map<string, LoadedStream<State>>();

  constructor(
    readonly kind: StreamKind<State, Command, Event, Decision>,
    private readonly store: EventStore,
    /** Streams kept folded in memory (least recently used are dropped); 0 folds every load from the start. */
    private readonly capacity: number,
  ) {}

  async load(stream: string): Promise<LoadedStream<State>> {
    let loaded = this.cache.get(stream) ?? emptyStream(this.kind, stream);
    for (;;) {
      const events = await this.store.readStream(stream, { fromRevision: loaded.revision + 1, maxCount: PAGE });
      loaded = foldInto(this.kind, loaded, events);
      if (events.length < PAGE) break;
    }
    this.remember(loaded);
    return loaded;
  }

  /**
   * The stream as this process last folded it, read from the store only when
   * it holds none. For a command's first attempt alone: its append expects
   * that revision, so a fold another process has outdated costs one retry
   * (WrongExpectedVersion, then load) and never a decision on old state.
   */
  async latest(stream: string): Promise<LoadedStream<State>> {
    const held = this.cache.get(stream);
    return held ?? this.load(stream);
  }

  /** `loaded` with events that follow it (what an append just wrote), kept as the stream's latest fold. */
  folded(loaded: LoadedStream<State>, events: readonly StoredEvent[], decoded?: readonly DomainEvent[]): LoadedStream<State> {
    const after = foldInto(this.kind, loaded, events, decoded);
    this.remember(after);
    return after;
  }

  private remember(loaded: LoadedStream<State>): void {
    if (this.capacity === 0) return;
    this.cache.delete(loaded.stream);
    this.cache.set(loaded.stream, loaded);
    if (this.cache.size > this.capacity) this.cache.delete(this.cache.keys().next().value!);
  }
}
