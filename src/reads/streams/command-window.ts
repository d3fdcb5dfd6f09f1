// The window of a stream's recent commands (by idempotency key) that
// idempotent retries are answered from: the `capacity` most recently begun
// commands, each with the span of revisions its events took. Immutable, as
// a folded stream is (a command in flight may still hold the fold before
// it), yet a fold does not copy the window: new spans go into a small young
// generation, copied per fold, which is merged into the shared old one once
// it holds YOUNG entries (issue 20: copying a full 1,024-command Map per
// command cost ~50 us and tens of KB of garbage each).
export interface CommandSpan {
  readonly firstRevision: number;
  readonly lastRevision: number;
}

/** A span and when its command was first seen (the window keeps the `capacity` latest). */
interface Slot {
  readonly span: CommandSpan;
  readonly seq: number;
}

/** Spans in the young generation before it is merged into the old one. */
const YOUNG = 64;

export class CommandWindow {
  private constructor(
    readonly capacity: number,
    private readonly old: ReadonlyMap<string, Slot>,
    private readonly young: ReadonlyMap<string, Slot>,
    /** The seq the next new command takes; those below nextSeq - capacity have left the window. */
    private readonly nextSeq: number,
  ) {}

  static empty(capacity: number): CommandWindow {
    return new CommandWindow(capacity, new Map(), new Map(), 0);
  }

  get(commandId: string): CommandSpan | undefined {
    const slot = this.slot(commandId);
    return slot?.span;
  }

  has(commandId: string): boolean {
    return this.slot(commandId) !== undefined;
  }

  /** The window's commands and spans, oldest first (for comparing folds; commands look spans up with get). */
  *[Symbol.iterator](): IterableIterator<[string, CommandSpan]> {
    const slots = [...this.merged(this.old, this.young, this.nextSeq)].sort(([, a], [, b]) => a.seq - b.seq);
    for (const [commandId, slot] of slots) yield [commandId, slot.span];
  }

  /** The window after these events' commands, in log order: (commandId, revision) per event. */
  extendedBy(events: Iterable<readonly [commandId: string, revision: number]>): CommandWindow {
    const young = new Map(this.young);
    let nextSeq = this.nextSeq;
    let old = this.old;
    for (const [commandId, revision] of events) {
      const slot = this.live(young.get(commandId) ?? old.get(commandId), nextSeq);
      if (slot) young.set(commandId, { span: { firstRevision: slot.span.firstRevision, lastRevision: revision }, seq: slot.seq });
      else young.set(commandId, { span: { firstRevision: revision, lastRevision: revision }, seq: nextSeq++ });
      if (young.size >= YOUNG) {
        old = this.merged(old, young, nextSeq);
        young.clear();
      }
    }
    return new CommandWindow(this.capacity, old, young, nextSeq);
  }

  private slot(commandId: string): Slot | undefined {
    return this.live(this.young.get(commandId) ?? this.old.get(commandId), this.nextSeq);
  }

  /** The slot if its command is still among the `capacity` latest. */
  private live(slot: Slot | undefined, nextSeq: number): Slot | undefined {
    return slot !== undefined && slot.seq >= nextSeq - this.capacity ? slot : undefined;
  }

  /** One generation of the slots still in the window (the young ones replace their old selves). */
  private merged(old: ReadonlyMap<string, Slot>, young: ReadonlyMap<string, Slot>, nextSeq: number): Map<string, Slot> {
    const next = new Map<string, Slot>();
    for (const [commandId, slot] of old) if (!young.has(commandId) && this.live(slot, nextSeq)) next.set(commandId, slot);
    for (const [commandId, slot] of young) if (this.live(slot, nextSeq)) next.set(commandId, slot);
    return next;
  }
}
