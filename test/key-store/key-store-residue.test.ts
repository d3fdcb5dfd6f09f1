// Crypto-shredding leaves nothing usable behind: keys are only ever stored
// wrapped, a forgotten key's bytes are gone from the rows and from the tables'
// files (dead row versions included), and a master key rotation re-wraps the rest.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MasterKeyUnknown } from '../../src/infrastructure/key-store/errors.js';
import { masterKey } from '../../src/infrastructure/key-store/master-key.js';
import {
  admin,
  databaseUrl,
  filesHold,
  found,
  masterA,
  newSubject,
  opened,
  rowsHold,
  sealed,
  storeWith,
  useKeyStoreDatabase,
  wrappedKeyOf,
  wrappedSecretOf,
} from './key-store-fixture.js';

useKeyStoreDatabase('key_store_residue');

describe('key store residue', () => {
  it("leaves no forgotten key bytes in the rows or in the tables' files, and never stores keys or plaintext unwrapped", async () => {
    const ref = newSubject();
    const other = newSubject();
    const store = storeWith(masterA);
    const phone = '+1 555 0199 4242';
    await sealed(store, ref, 'm-phone', phone);
    await sealed(store, ref, 'm-kept', 'kept');
    await sealed(store, other, 'm-1', 'other');
    const forgottenMemoryKey = found(await store.memoryKey(ref, 'm-phone')).key;
    const forgottenWrapped = await wrappedKeyOf(ref, 'm-phone');
    const liveWrapped = await wrappedKeyOf(ref, 'm-kept');

    // Positive controls: the scans do find what is there.
    expect(await rowsHold(forgottenWrapped)).toBe(true);
    expect(await filesHold(liveWrapped)).toBe(true);
    // Key material is stored only wrapped; plaintext is never stored.
    expect(await rowsHold(forgottenMemoryKey)).toBe(false);
    expect(await filesHold(forgottenMemoryKey)).toBe(false);
    const subjectKeys = found(await store.subjectKeys(ref));
    for (const bytes of [subjectKeys.dataKey, subjectKeys.hashKey, Buffer.from(phone)]) {
      expect(await rowsHold(bytes)).toBe(false);
      expect(await filesHold(bytes)).toBe(false);
    }

    await store.forgetMemory(ref, 'm-phone');
    expect(await rowsHold(forgottenWrapped)).toBe(false);
    expect(await filesHold(forgottenWrapped)).toBe(false);
    expect(await filesHold(liveWrapped)).toBe(true);

    const subjectSecret = await wrappedSecretOf(other);
    const otherWrapped = await wrappedKeyOf(other, 'm-1');
    await store.forgetSubject(other);
    for (const bytes of [subjectSecret, otherWrapped]) {
      expect(await rowsHold(bytes)).toBe(false);
      expect(await filesHold(bytes)).toBe(false);
    }
  });

  it('waits for a snapshot older than the forget to end before rewriting, so that the rewrite does not have to keep the old row', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await sealed(store, ref, 'm-1', 'x');
    const wrapped = await wrappedKeyOf(ref, 'm-1');
    // A reader in this database whose snapshot still sees the live row (as an ANALYZE or a long report would).
    const reader = new pg.Client({ connectionString: databaseUrl(), application_name: 'old-snapshot' });
    await reader.connect();
    try {
      // Its snapshot is taken by its first statement; it holds no lock on the key tables (a lock would make VACUUM FULL wait anyway).
      await reader.query('BEGIN ISOLATION LEVEL REPEATABLE READ');
      await reader.query('SELECT 1');
      const ended = new Promise<void>((resolve, reject) => {
        setTimeout(() => void reader.query('COMMIT').then(() => resolve(), reject), 1_000);
      });
      await store.forgetMemory(ref, 'm-1');
      await ended;
      expect(await rowsHold(wrapped)).toBe(false);
      expect(await filesHold(wrapped)).toBe(false);
    } finally {
      await reader.end();
    }
  });

  it("without the rewrite, a forgotten key's old row version stays in the table file (why the store rewrites)", async () => {
    const ref = newSubject();
    const store = storeWith(masterA, [], false);
    // Autovacuum could prune the dead version first (though pruning is not guaranteed to overwrite it either).
    await admin().query('ALTER TABLE key_store_memories SET (autovacuum_enabled = false)');
    try {
      await sealed(store, ref, 'm-1', 'x');
      const wrapped = await wrappedKeyOf(ref, 'm-1');
      await store.forgetMemory(ref, 'm-1');
      expect(await rowsHold(wrapped)).toBe(false);
      expect(await filesHold(wrapped)).toBe(true);
      // A rewrite keeps a version that a snapshot held anywhere on the server could still see (a backend that
      // is still connecting has no database yet, and holds every database's horizon back): the next one removes it.
      for (let rewrite = 1; rewrite <= 5 && (await filesHold(wrapped)); rewrite++) await store.rewriteKeyTables();
      expect(await filesHold(wrapped)).toBe(false);
    } finally {
      await admin().query('ALTER TABLE key_store_memories RESET (autovacuum_enabled)');
    }
  });

  it('refuses rows wrapped by a master key it does not hold, and rotates to a new master key', async () => {
    const ref = newSubject();
    const envelope = await sealed(storeWith(masterA), ref, 'm-1', 'rotated');
    const masterB = masterKey(randomBytes(32));

    await expect(storeWith(masterB).memoryKey(ref, 'm-1')).rejects.toBeInstanceOf(MasterKeyUnknown);
    await expect(storeWith(masterB).subjectKeys(ref)).rejects.toBeInstanceOf(MasterKeyUnknown);

    const oldSecret = await wrappedSecretOf(ref);
    const oldWrapped = await wrappedKeyOf(ref, 'm-1');
    const rotating = storeWith(masterB, [masterA]);
    const rewrapped = await rotating.rewrapUnderCurrentMaster();
    expect(rewrapped.subjects).toBeGreaterThanOrEqual(1);
    expect(rewrapped.memories).toBeGreaterThanOrEqual(1);
    expect(await rotating.rewrapUnderCurrentMaster()).toEqual({ subjects: 0, memories: 0 });

    const onlyB = storeWith(masterB);
    expect(await opened(onlyB, ref, 'm-1', envelope)).toBe('rotated');
    expect(await filesHold(oldSecret)).toBe(false);
    expect(await filesHold(oldWrapped)).toBe(false);
    await expect(storeWith(masterA).memoryKey(ref, 'm-1')).rejects.toBeInstanceOf(MasterKeyUnknown);
    const remaining = await admin().query<{ n: number }>(
      `SELECT (SELECT count(*) FROM key_store_subjects WHERE master_key_id = $1) + (SELECT count(*) FROM key_store_memories WHERE master_key_id = $1) AS n`,
      [masterA.id],
    );
    expect(Number(remaining.rows[0]!.n)).toBe(0);
  });
});
