// Group commit for a statement many requests make at once (an append, a
// memory key): while `maxInFlight` groups are running, later calls queue;
// when one ends, what is queued goes as one group, in one statement and one
// commit. A call made while nothing runs goes at once, so grouping adds no
// wait when the process is idle and at most one statement's time under load,
// and it saves a round trip and a commit per call it joins. A group of one
// runs the single statement; an item the group statement could not settle
// (ALONE) runs it again by itself, after the group, holding no group's place.
// An item whose key a running group holds waits for that group: it could
// only collide with it (two appends to one stream from two groups meet at
// the unique index, and the later statement fails whole, every part of it
// going again alone).
export const ALONE = Symbol('alone');

export interface GroupedStatement<Item, Result> {
  /** The statement for one item, which settles every case (and is what an item the group left goes to). */
  readonly runAlone: (item: Item) => Promise<Result>;
  /** Runs two or more items together: one result per item, in their order, or ALONE for those to run by themselves. */
  readonly runGroup: (items: readonly Item[]) => Promise<readonly (Result | typeof ALONE)[]>;
  /** Items of one key never share a group (two appends to one stream: the second must see the first), nor run in two groups at once. */
  readonly keyOf: (item: Item) => string;
  /**
   * Items for which this holds may share a group with others of their key
   * that it holds for too (appends with `any`: the group statement writes
   * them one after another, in the order they were made).
   */
  readonly sharesKey?: (item: Item) => boolean;
  readonly maxItems: number;
  readonly maxInFlight: number;
}

interface Pending<Item, Result> {
  readonly item: Item;
  readonly resolve: (result: Result | typeof ALONE) => void;
  readonly reject: (error: unknown) => void;
}

export class StatementGroups<Item, Result> {
  #queue: Pending<Item, Result>[] = [];
  #inFlight = 0;
  /** The keys of the groups running now. */
  readonly #running = new Set<string>();

  constructor(private readonly statement: GroupedStatement<Item, Result>) {}

  async run(item: Item): Promise<Result> {
    const result = await new Promise<Result | typeof ALONE>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      this.#pump();
    });
    return result === ALONE ? this.statement.runAlone(item) : result;
  }

  #pump(): void {
    while (this.#inFlight < this.statement.maxInFlight && this.#queue.length > 0) {
      const { group, keys } = this.#take();
      if (group.length === 0) return;
      this.#inFlight++;
      for (const key of keys) this.#running.add(key);
      void this.#runGroup(group).finally(() => {
        this.#inFlight--;
        for (const key of keys) this.#running.delete(key);
        this.#pump();
      });
    }
  }

  /**
   * The oldest queued items, at most maxItems, one per key (or several that
   * share it), none whose key a running group holds; the others keep their places.
   */
  #take(): { group: Pending<Item, Result>[]; keys: ReadonlySet<string> } {
    const taken: Pending<Item, Result>[] = [];
    const left: Pending<Item, Result>[] = [];
    /** Each key taken, and whether every item taken under it shares it. */
    const keys = new Map<string, boolean>();
    /** Keys of which an item stays queued: later items of them stay too (each key's items go in the order made). */
    const waiting = new Set<string>();
    const { keyOf, sharesKey, maxItems } = this.statement;
    for (const pending of this.#queue) {
      const key = keyOf(pending.item);
      const shares = sharesKey?.(pending.item) ?? false;
      const held = keys.get(key);
      if (taken.length >= maxItems || this.#running.has(key) || waiting.has(key) || (held !== undefined && !(held && shares))) {
        left.push(pending);
        waiting.add(key);
      } else {
        keys.set(key, shares);
        taken.push(pending);
      }
    }
    this.#queue = left;
    return { group: taken, keys: new Set(keys.keys()) };
  }

  async #runGroup(group: readonly Pending<Item, Result>[]): Promise<void> {
    try {
      const results =
        group.length === 1
          ? [await this.statement.runAlone(group[0]!.item)]
          : await this.statement.runGroup(group.map((pending) => pending.item));
      if (results.length !== group.length) throw new Error(`a grouped statement gave ${results.length} results for ${group.length} items`);
      group.forEach((pending, i) => pending.resolve(results[i]!));
    } catch (error) {
      for (const pending of group) pending.reject(error);
    }
  }
}
