// Group commit's queue (src/infrastructure/postgres/statement-groups.ts):
// which items go together and which wait. The statements here are the
// port's own functions, recording what ran together; the PostgreSQL side
// is held by test/contract/postgres-grouped-append.test.ts.
import { describe, expect, it } from 'vitest';
import { StatementGroups } from '../../src/infrastructure/postgres/statement-groups.js';

interface Item {
  readonly key: string;
  readonly shares: boolean;
  readonly n: number;
}

/** Groups that finish only when released, so the test decides what runs at once. */
function recordingGroups(maxInFlight = 2) {
  const ran: Item[][] = [];
  const running = new Set<Item[]>();
  const overlaps: string[] = [];
  const releases: (() => void)[] = [];
  const settle = (items: readonly Item[]) => {
    const group = [...items];
    for (const other of running) for (const item of group) if (other.some((o) => o.key === item.key)) overlaps.push(item.key);
    running.add(group);
    ran.push(group);
    return new Promise<number[]>((resolve) =>
      releases.push(() => {
        running.delete(group);
        resolve(group.map((item) => item.n));
      }),
    );
  };
  const groups = new StatementGroups<Item, number>({
    runAlone: async (item) => (await settle([item]))[0]!,
    runGroup: (items) => settle(items),
    keyOf: (item) => item.key,
    sharesKey: (item) => item.shares,
    maxItems: 8,
    maxInFlight,
  });
  const releaseAll = async () => {
    while (releases.length > 0) {
      releases.shift()!();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return { groups, ran, overlaps, releaseAll };
}

const item = (key: string, n: number, shares = false): Item => ({ key, shares, n });

describe('statement groups', () => {
  it('never runs two groups holding one key at once: an item of a running key waits for that group', async () => {
    const { groups, ran, overlaps, releaseAll } = recordingGroups(2);
    const first = groups.run(item('a', 0));
    // While `a` runs, more of `a` and some of `b` are made: `b` goes at once beside it, the rest of `a` waits.
    const rest = [groups.run(item('a', 1)), groups.run(item('b', 2)), groups.run(item('a', 3, true)), groups.run(item('b', 4))];
    await new Promise((resolve) => setImmediate(resolve));
    await releaseAll();
    expect(await Promise.all([first, ...rest])).toEqual([0, 1, 2, 3, 4]);
    expect(overlaps).toEqual([]);
    expect(ran.map((group) => group.map((i) => i.n))).toEqual([[0], [2], [1], [4], [3]]);
  });

  it('puts items that share their key in one group, and never one that does not, each key’s items in the order made', async () => {
    const { groups, ran, releaseAll } = recordingGroups(1);
    const busy = groups.run(item('x', 0));
    const queued = [
      groups.run(item('a', 1, true)),
      groups.run(item('a', 2, true)),
      groups.run(item('a', 3, false)),
      groups.run(item('a', 4, true)),
      groups.run(item('b', 5, false)),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    await releaseAll();
    expect(await Promise.all([busy, ...queued])).toEqual([0, 1, 2, 3, 4, 5]);
    // 4 shares `a` but was made after 3, which does not: it waits behind 3.
    expect(ran.map((group) => group.map((i) => i.n))).toEqual([[0], [1, 2, 5], [3], [4]]);
  });
});
