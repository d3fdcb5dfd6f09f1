// Group commit for a statement many requests make at once (an append, a
// memory key): while `maxInFlight` groups are running, later calls queue;
// when one ends, what is queued goes as one group, in one statement and one
// commit. A call made while nothing runs goes at once, so grouping adds no
// wait when the process is idle and at most one statement's time under load,
// and it saves a round trip and a commit per call it joins. A group of one
// runs the single statement; an item the group statement could not settle
// (ALONE) runs it again by itself, after the group, holding no group's place.
export const ALONE = Symbol('alone');

export interface GroupedStatement<Item, Result> {
  /** The statement for one item, which settles every case (and is what an item the group left goes to). */
  readonly runAlone: (item: Item) => Promise<Result>;
  /** Runs two or more items together: one result per item, in their order, or ALONE for those to run by themselves. */
  readonly runGroup: (items: readonly Item[]) => Promise<readonly (Result | typeof ALONE)[]>;
  /** Items of one key never share a group (two appends to one stream: the second must see the first). */
  readonly keyOf: (item: Item) => string;
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
      const group = this.#take();
      this.#inFlight++;
      void this.#runGroup(group).finally(() => {
        this.#inFlight--;
        this.#pump();
      });
    }
  }

  /** The oldest queued items, at most maxItems, one per key; the others keep their places. */
  #take(): Pending<Item, Result>[] {
    const taken: Pending<Item, Result>[] = [];
    const left: Pending<Item, Result>[] = [];
    const keys = new Set<string>();
    for (const pending of this.#queue) {
      const key = this.statement.keyOf(pending.item);
      if (taken.length >= this.statement.maxItems || keys.has(key)) left.push(pending);
      else {
        keys.add(key);
        taken.push(pending);
      }
    }
    this.#queue = left;
    return taken;
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
