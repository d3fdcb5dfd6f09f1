// The key store's unwrapped keys (issue 20): a key read again is the same
// key without another unwrap, found only by its very row. A row whose
// wrapped bytes changed is unwrapped again (and fails if they are not its
// own); a forget through the store leaves none of the subject's keys in
// memory, which the erasure check counts.
import { describe, expect, it } from 'vitest';
import { KeyUnwrapFailed } from '../../src/infrastructure/cipher/errors.js';
import { randomBytes } from 'node:crypto';
import { masterKey } from '../../src/infrastructure/key-store/master-key.js';
import { PostgresKeyStore } from '../../src/infrastructure/key-store/postgres-key-store.js';
import { keysCheck } from '../../src/reads/erasure/ledger-checks.js';
import type { ErasureTarget } from '../../src/reads/erasure/verification.js';
import { admin, databaseUrl, found, masterA, newSubject, storeWith, useKeyStoreDatabase } from './key-store-fixture.js';

useKeyStoreDatabase('key_store_unwrapped');

describe('unwrapped keys', () => {
  it('reads the same keys again from memory, and counts what it holds', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    const sealing = await store.sealingKeys(ref, 'm-1');
    if (sealing.status !== 'found') throw new Error(`expected keys, got ${sealing.status}`);
    const made = sealing.memory;
    expect(store.unwrappedKeysHeld(ref, 'subject')).toBeGreaterThanOrEqual(1);
    const first = found((await store.memoryKeys(ref, ['m-1'])).get('m-1')!);
    const again = found((await store.memoryKeys(ref, ['m-1'])).get('m-1')!);
    expect(first).toEqual(made);
    expect(again).toEqual(first);
    expect(store.unwrappedKeysHeld(ref, ['m-1'])).toBe(1);
    expect(store.unwrappedKeysHeld(ref, ['m-2'])).toBe(0);
  });

  it("reads the subject's keys with its memories' in one call: the very keys each read alone gives, forgotten with the subject", async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await store.memoryKey(ref, 'm-1', { create: true });
    const both = await store.subjectAndMemoryKeys(ref, ['m-1', 'm-9']);
    expect(found(both.subject)).toEqual(found(await store.subjectKeys(ref)));
    expect(found(both.memories.get('m-1')!)).toEqual(found((await store.memoryKeys(ref, ['m-1'])).get('m-1')!));
    expect(both.memories.get('m-9')).toEqual({ status: 'absent' });
    expect((await store.subjectAndMemoryKeys(newSubject(), ['m-1'])).subject).toEqual({ status: 'absent' });
    await store.forgetSubject(ref);
    const gone = await store.subjectAndMemoryKeys(ref, ['m-1']);
    expect(gone.subject).toMatchObject({ status: 'forgotten', scope: 'subject' });
    expect(gone.memories.get('m-1')).toMatchObject({ status: 'forgotten' });
  });

  it("a row whose wrapped bytes changed is unwrapped again: another row's bytes fail even after a good read", async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await store.memoryKey(ref, 'm-1', { create: true });
    await store.memoryKey(ref, 'm-2', { create: true });
    found((await store.memoryKeys(ref, ['m-1', 'm-2'])).get('m-1')!);
    await admin().query(
      `UPDATE key_store_memories SET wrapped_key = (SELECT wrapped_key FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = 'm-2')
       WHERE tenant = $1 AND subject = $2 AND memory_id = 'm-1'`,
      [ref.tenant, ref.subject],
    );
    await expect(store.memoryKey(ref, 'm-1')).rejects.toBeInstanceOf(KeyUnwrapFailed);
    // A master key rotation below re-wraps every live key of the database: this altered one would stop it.
    await store.forgetSubject(ref);
  });

  it("an artifact's key read again comes from memory; its row altered, it is unwrapped again and fails; a forget drops it", async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await store.memoryKey(ref, 'm-1', { create: true });
    const derivation = { derivedFrom: ['m-1'], parentArtifactId: null };
    const made = found(await store.artifactKey(ref, 'summary:s:000001:a', { create: derivation }));
    await store.artifactKey(ref, 'summary:s:000001:b', { create: derivation });
    const heldBefore = store.unwrappedKeysHeld(ref, 'subject');
    const first = found(await store.artifactKey(ref, 'summary:s:000001:a'));
    expect(first).toEqual(made);
    // The subject's secret, the artifact's key and its hash key are kept: the next read unwraps nothing and holds nothing more.
    expect(store.unwrappedKeysHeld(ref, 'subject')).toBe(heldBefore + 3);
    expect(found(await store.artifactKey(ref, 'summary:s:000001:a'))).toEqual(first);
    expect(store.unwrappedKeysHeld(ref, 'subject')).toBe(heldBefore + 3);

    await admin().query(
      `UPDATE key_store_artifacts SET wrapped_key = (SELECT wrapped_key FROM key_store_artifacts WHERE artifact_id = 'summary:s:000001:b' AND tenant = $1 AND subject = $2)
       WHERE artifact_id = 'summary:s:000001:a' AND tenant = $1 AND subject = $2`,
      [ref.tenant, ref.subject],
    );
    await expect(store.artifactKey(ref, 'summary:s:000001:a')).rejects.toBeInstanceOf(KeyUnwrapFailed);
    await store.forgetSubject(ref);
    expect(store.unwrappedKeysHeld(ref, 'subject')).toBe(0);
  });

  it('a forget leaves none of the keys in memory, and the erasure check counts any that stay', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await store.memoryKey(ref, 'm-1', { create: true });
    await store.memoryKey(ref, 'm-2', { create: true });
    await store.memoryKeys(ref, ['m-1', 'm-2']);
    expect(store.unwrappedKeysHeld(ref, ['m-1', 'm-2'])).toBe(2);

    // Another process's store read the keys before the forget: its memory still holds them, and the check says so.
    const other = storeWith(masterA);
    await other.memoryKeys(ref, ['m-1']);
    await store.forgetMemory(ref, 'm-1');
    expect(store.unwrappedKeysHeld(ref, ['m-1'])).toBe(0);
    expect(store.unwrappedKeysHeld(ref, ['m-2'])).toBe(0);
    expect(await store.memoryKey(ref, 'm-1')).toMatchObject({ status: 'forgotten' });
    const needles = { plaintexts: [], sha256: [], keyedHashes: [], plaintextKnown: false };
    const target: ErasureTarget = { ref, scope: 'memory', memoryIds: ['m-1'], artifactIds: [], keyIds: [], needles, recordedAt: [] };
    expect(await keysCheck(store).run(target)).toMatchObject({ status: 'passed', findings: 0 });
    expect(await keysCheck(other).run(target)).toMatchObject({ status: 'failed', findings: 1 });
    // That store no longer answers from memory: the row is gone.
    expect(await other.memoryKey(ref, 'm-1')).toMatchObject({ status: 'forgotten' });

    await store.forgetSubject(ref);
    expect(store.unwrappedKeysHeld(ref, 'subject')).toBe(0);
  });

  it('a record after another process re-keyed the subject (master rotation) reads the row again, never writing under the old master', async () => {
    const masterB = masterKey(randomBytes(32));
    const ref = newSubject();
    const store = storeWith(masterA, [masterB]);
    const first = await store.sealingKeys(ref, 'm-1');
    expect(first.status).toBe('found');
    expect(store.unwrappedKeysHeld(ref, 'subject')).toBeGreaterThanOrEqual(1);
    // Another service rotated to B and re-wrapped the subject's secret under it.
    await storeWith(masterB, [masterA]).rewrapUnderCurrentMaster();
    expect(await store.sealingKeys(ref, 'm-2')).toMatchObject({ status: 'found' });
    const masterOf = async (memoryId: string) =>
      (
        await admin().query<{ master_key_id: string }>(
          'SELECT master_key_id FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = $3',
          [ref.tenant, ref.subject, memoryId],
        )
      ).rows[0]!.master_key_id;
    expect(await masterOf('m-2')).toBe(masterB.id);
  });

  it('with no room kept, every read unwraps and nothing is held', async () => {
    const ref = newSubject();
    const store = new PostgresKeyStore({
      connectionString: databaseUrl(),
      masterKeys: { current: masterA, previous: [] },
      unwrappedKeys: 0,
    });
    try {
      await store.memoryKey(ref, 'm-1', { create: true });
      found(await store.memoryKey(ref, 'm-1'));
      expect(store.unwrappedKeysHeld(ref, 'subject')).toBe(0);
    } finally {
      await store.close();
    }
  });
});
