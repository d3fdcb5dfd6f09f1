import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PersistentMap } from '../../src/domain/persistent-map/persistent-map.js';

type Op = { kind: 'set'; key: string; value: number } | { kind: 'delete'; key: string };

// Few distinct keys so that sets, overwrites and deletes of the same key interleave.
const key = fc.oneof(fc.constantFrom('a', 'b', 'm-1', 'm-2', 'm-10', ''), fc.string({ maxLength: 6 }));
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), key, value: fc.integer() }),
  fc.record({ kind: fc.constant('delete' as const), key }),
);

describe('PersistentMap', () => {
  it('behaves like Map, and earlier versions never change', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        let map = PersistentMap.empty<number>();
        const model = new Map<string, number>();
        const versions: Array<[PersistentMap<number>, Array<[string, number]>]> = [];
        for (const o of ops) {
          if (o.kind === 'set') {
            map = map.set(o.key, o.value);
            model.set(o.key, o.value);
          } else {
            map = map.delete(o.key);
            model.delete(o.key);
          }
          versions.push([map, [...model.entries()].sort()]);
          expect(map.size).toBe(model.size);
          expect(map.get(o.key)).toBe(model.get(o.key));
          expect(map.has(o.key)).toBe(model.has(o.key));
        }
        for (const [version, expected] of versions) expect([...version.entries()].sort()).toEqual(expected);
      }),
    );
  });

  it('has one shape per key set, whatever the order of insertion and deletion', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ maxLength: 8 }), { maxLength: 80 }),
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 40 }),
        (keys, extra) => {
          const forwards = PersistentMap.from(keys.map((k) => [k, 1] as const));
          let roundabout = PersistentMap.from([...extra, ...keys].reverse().map((k) => [k, 1] as const));
          for (const k of extra) if (!keys.includes(k)) roundabout = roundabout.delete(k);
          expect(roundabout).toEqual(forwards);
          expect([...roundabout.keys()]).toEqual([...forwards.keys()]);
        },
      ),
    );
  });

  it('keeps keys with equal 32-bit hashes apart', () => {
    // Pairs with equal FNV-1a hashes (found by search): they share a collision node.
    const pairs = [
      ['m-329599', 'm-532382'],
      ['m-329598', 'm-532383'],
      ['m-329593', 'm-532388'],
    ] as const;
    let map = PersistentMap.empty<string>();
    for (const [a, b] of pairs) map = map.set(a, a).set(b, b);
    expect(map.size).toBe(6);
    for (const [a, b] of pairs) expect([map.get(a), map.get(b)]).toEqual([a, b]);
    const fewer = map.delete('m-329599').set('m-532382', 'changed');
    expect([fewer.get('m-329599'), fewer.get('m-532382'), fewer.size]).toEqual([undefined, 'changed', 5]);
    expect(map.get('m-329599')).toBe('m-329599');
    expect(PersistentMap.from([...map.entries()].reverse())).toEqual(map);
  });

  it('holds many keys', () => {
    let map = PersistentMap.empty<number>();
    for (let i = 0; i < 20_000; i++) map = map.set(`m-${i}`, i);
    expect(map.size).toBe(20_000);
    for (let i = 0; i < 20_000; i += 997) expect(map.get(`m-${i}`)).toBe(i);
    for (let i = 0; i < 20_000; i += 2) map = map.delete(`m-${i}`);
    expect(map.size).toBe(10_000);
    expect(map.get('m-2')).toBeUndefined();
    expect(map.get('m-3')).toBe(3);
  });
});
