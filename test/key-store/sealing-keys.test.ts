// sealingKeys (issue 20): what a record seals a new memory with, the subject
// row read once. The keys are the very ones subjectKeys and memoryKey read
// back (from another store instance too); a retry gets the same memory key;
// a forgotten memory or subject stays forgotten and gets no new key.
import { describe, expect, it } from 'vitest';
import type { SealingKeys } from '../../src/infrastructure/key-store/port.js';
import { found, masterA, newSubject, storeWith, useKeyStoreDatabase } from './key-store-fixture.js';

useKeyStoreDatabase('key_store_sealing');

const sealing = (result: Awaited<ReturnType<ReturnType<typeof storeWith>['sealingKeys']>>): SealingKeys => {
  if (result.status !== 'found') throw new Error(`expected keys, got ${result.status}`);
  return result;
};

describe('sealingKeys', () => {
  it("makes the subject's keys and the memory's key, the ones the other lookups read back", async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    const keys = sealing(await store.sealingKeys(ref, 'm-1'));
    const other = storeWith(masterA);
    const subject = found(await other.subjectKeys(ref));
    expect(subject).toEqual(keys.subject);
    expect(found(await other.memoryKey(ref, 'm-1'))).toEqual(keys.memory);
    expect(keys.memory.keyId).toMatch(/^mk_/);

    // A retry of the same memory: the same key; another memory of the subject: its own key, the same subject keys.
    expect(sealing(await store.sealingKeys(ref, 'm-1')).memory).toEqual(keys.memory);
    const second = sealing(await store.sealingKeys(ref, 'm-2'));
    expect(second.subject).toEqual(keys.subject);
    expect(second.memory.keyId).not.toBe(keys.memory.keyId);
  });

  it('a forgotten memory or subject stays forgotten', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    sealing(await store.sealingKeys(ref, 'm-1'));
    await store.forgetMemory(ref, 'm-1');
    expect(await store.sealingKeys(ref, 'm-1')).toMatchObject({ status: 'forgotten', scope: 'memory' });
    await store.forgetSubject(ref);
    expect(await store.sealingKeys(ref, 'm-2')).toMatchObject({ status: 'forgotten', scope: 'subject' });
    expect(await store.memoryKey(ref, 'm-2')).toMatchObject({ status: 'forgotten' });
  });
});
