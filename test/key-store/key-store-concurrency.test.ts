// Key making and forgetting across real processes.
import { describe, expect, it } from 'vitest';
import { admin, inChildProcess, newSubject, storeWith, masterA, useKeyStoreDatabase } from './key-store-fixture.js';

useKeyStoreDatabase('key_store_concurrency');

describe('key store under concurrent processes', () => {
  it('gives concurrent processes one subject key and one key per memory', async () => {
    const ref = newSubject();
    type Made = { shared: string; created: boolean; key: string; own: string; subject: string };
    const results = await Promise.all(
      Array.from({ length: 4 }, () =>
        inChildProcess<Made>(
          ref,
          `const shared = await store.memoryKey({ tenant, subject }, 'm-shared', { create: true });
           const own = await store.memoryKey({ tenant, subject }, 'm-' + process.pid, { create: true });
           const subjectKeys = await store.subjectKeys({ tenant, subject });
           console.log(JSON.stringify({ shared: shared.key.keyId, created: shared.created, key: shared.key.key.toString('hex'), own: own.status, subject: subjectKeys.key.keyId }));`,
        ),
      ),
    );
    expect(new Set(results.map((r) => r.subject)).size).toBe(1);
    expect(new Set(results.map((r) => `${r.shared}/${r.key}`)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(results.every((r) => r.own === 'found')).toBe(true);
    expect((await storeWith(masterA).listKeyIds(ref)).memories).toHaveLength(5);
  });

  it('forgetting a subject while other processes make its keys leaves no live key behind', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await store.subjectKeys(ref, { create: true });
    const creators = Array.from({ length: 3 }, () =>
      inChildProcess<string[]>(
        ref,
        `const statuses = [];
         for (let i = 0; i < 100; i++) statuses.push((await store.memoryKey({ tenant, subject }, 'm-' + process.pid + '-' + i, { create: true })).status);
         console.log(JSON.stringify(statuses));`,
      ),
    );
    // Forget once some keys exist, while the creators are still running.
    while ((await store.listKeyIds(ref)).memories.length < 6) await new Promise((r) => setTimeout(r, 10));
    const forgetting = await store.forgetSubject(ref);
    const runs = await Promise.all(creators);

    expect(forgetting.forgottenNow).toBe(true);
    for (const statuses of runs) {
      // Each creator gets keys until the forget, then only forgotten: never a key after.
      const firstForgotten = statuses.indexOf('forgotten');
      expect(firstForgotten).toBeGreaterThanOrEqual(0);
      expect(statuses.slice(firstForgotten).every((status) => status === 'forgotten')).toBe(true);
    }
    const live = await admin().query<{ n: number }>(
      `SELECT count(*)::int AS n FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND (wrapped_key IS NOT NULL OR forgotten_at IS NULL)`,
      [ref.tenant, ref.subject],
    );
    expect(live.rows[0]!.n).toBe(0);
    const listed = await store.listKeyIds(ref);
    expect(listed.memories.every((m) => m.state === 'forgotten')).toBe(true);
    expect(listed.memories.length).toBe(runs.flat().filter((status) => status === 'found').length);
  });
});
