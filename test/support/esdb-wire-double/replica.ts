// A follower's copy of the leader's log. A follower serves reads from its own
// index, which shows a commit only once replication has brought it there; a
// client that reads from a follower can miss its own write for that long.
import type { InMemoryLog, LogView, LoggedEvent } from './log.js';

export class LaggingReplica implements LogView {
  readonly events: LoggedEvent[] = [];
  private readonly streams = new Map<string, LoggedEvent[]>();
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly stopFollowing: () => void;

  constructor(
    private readonly leader: InMemoryLog,
    lagMs: number,
  ) {
    this.advance(leader.events.length);
    this.stopFollowing = leader.onAppended(() => {
      const target = leader.events.length;
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        this.advance(target);
      }, lagMs);
      this.timers.add(timer);
    });
  }

  stream(name: string): readonly LoggedEvent[] {
    return this.streams.get(name) ?? [];
  }

  onAppended(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.stopFollowing();
    for (const timer of this.timers) clearTimeout(timer);
  }

  private advance(target: number): void {
    if (target <= this.events.length) return;
    for (const event of this.leader.events.slice(this.events.length, target)) {
      this.events.push(event);
      const stream = this.streams.get(event.stream);
      if (stream) stream.push(event);
      else this.streams.set(event.stream, [event]);
    }
    for (const listener of [...this.listeners]) listener();
  }
}
