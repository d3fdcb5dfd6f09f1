// The real key store, wrapped to count what recall asks of it: the memory
// keys (each opens one memory's fields, or checks one served), the reads of
// the subject's keys on their own, and the round trips (calls) in all.
import type { KeyStore } from '../../../src/infrastructure/key-store/port.js';

export interface CountedKeys {
  readonly store: KeyStore;
  readonly asked: () => number;
  readonly subjectAsked: () => number;
  readonly roundTrips: () => number;
}

const KEY_READS = new Set<PropertyKey>(['memoryKeys', 'subjectAndMemoryKeys', 'subjectKeys', 'memoryKeyEpoch']);

export function countingKeys(keys: KeyStore): CountedKeys {
  let asked = 0;
  let subjectAsked = 0;
  let roundTrips = 0;
  const store = new Proxy(keys, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'memoryKeys' || prop === 'subjectAndMemoryKeys')
        return (ref: Parameters<KeyStore['memoryKeys']>[0], ids: readonly string[]) => {
          asked += ids.length;
          roundTrips += 1;
          return prop === 'memoryKeys' ? target.memoryKeys(ref, ids) : target.subjectAndMemoryKeys(ref, ids);
        };
      if (prop === 'subjectKeys')
        return (ref: Parameters<KeyStore['subjectKeys']>[0]) => {
          subjectAsked += 1;
          roundTrips += 1;
          return target.subjectKeys(ref);
        };
      if (typeof value !== 'function') return value;
      const bound = (value as (...args: unknown[]) => unknown).bind(target);
      return KEY_READS.has(prop)
        ? (...args: unknown[]) => {
            roundTrips += 1;
            return bound(...args);
          }
        : bound;
    },
  });
  return { store, asked: () => asked, subjectAsked: () => subjectAsked, roundTrips: () => roundTrips };
}
