// Memory keys made at once go as one statement and one commit (migration
// 0012, postgres-memory-key-making.ts), and each part keeps the answer it
// would have had alone: a key for a forgotten subject is refused, an
// existing row stands, the others are made.
import { describe, expect, it } from 'vitest';
import { admin, found, masterA, newSubject, storeWith, useKeyStoreDatabase } from './key-store-fixture.js';

useKeyStoreDatabase('key_store_grouped');

/** The transaction that made each subject's key of `memoryId` (its rows' xmin). */
const makers = async (refs: readonly { tenant: string; subject: string }[], memoryId: string) => {
  const { rows } = await admin().query<{ xmin: string }>(
    'SELECT xmin::text AS xmin FROM key_store_memories WHERE tenant = $1 AND subject = ANY($2::text[]) AND memory_id = $3',
    [refs[0]!.tenant, refs.map((ref) => ref.subject), memoryId],
  );
  return rows.map((row) => row.xmin);
};

describe('grouped memory keys', () => {
  it('makes the keys of records made at once in fewer transactions, each readable alone', async () => {
    const store = storeWith(masterA);
    const refs = Array.from({ length: 20 }, () => newSubject());
    // Each subject live and known to the store, as after its first record.
    for (const ref of refs) await store.sealingKeys(ref, 'm-first');
    const made = await Promise.all(refs.map((ref) => store.sealingKeys(ref, 'm-1')));
    for (const [i, ref] of refs.entries()) {
      const sealing = made[i]!;
      if (sealing.status !== 'found') throw new Error(`expected keys, got ${sealing.status}`);
      expect(found((await storeWith(masterA).memoryKeys(ref, ['m-1'])).get('m-1')!)).toEqual(sealing.memory);
    }
    // Alone, 20 keys are made in 20 transactions (as the first keys were, one after the other).
    expect(new Set(await makers(refs, 'm-first')).size).toBe(20);
    const transactions = await makers(refs, 'm-1');
    expect(transactions).toHaveLength(20);
    expect(new Set(transactions).size).toBeLessThan(20);
  });

  it('refuses the part of a forgotten subject, keeps an existing row, makes the others', async () => {
    const store = storeWith(masterA);
    const refs = Array.from({ length: 10 }, () => newSubject());
    for (const ref of refs) await store.sealingKeys(ref, 'm-first');
    const existing = found(await store.memoryKey(refs[1]!, 'm-1', { create: true }));
    // Forgotten by another process: this store still believes the subject live.
    await storeWith(masterA).forgetSubject(refs[0]!);
    const made = await Promise.all(refs.map((ref) => store.sealingKeys(ref, 'm-1')));
    expect(made[0]!.status).toBe('forgotten');
    expect(made[1]).toMatchObject({ status: 'found', memory: existing });
    for (const sealing of made.slice(2)) expect(sealing.status).toBe('found');
  });
});
