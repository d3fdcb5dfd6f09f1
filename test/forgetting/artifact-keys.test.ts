// Artifact keys in the key store: each summary's output has a key of its own,
// recorded with what it derives from; forgetting a memory destroys, in the
// same transaction, the keys of the artifacts deriving from it and of those
// built on them; a key for an artifact deriving from something forgotten is
// refused, also when the two race in separate processes; the destroyed keys'
// bytes leave the table's files; master key rotation re-wraps artifact keys.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { masterKey } from '../../src/infrastructure/key-store/master-key.js';
import type { ArtifactKey, KeyLookup, SubjectRef } from '../../src/infrastructure/key-store/port.js';
import { openArtifactField, sealArtifactField } from '../../src/infrastructure/key-store/sealing.js';
import type { PostgresKeyStore } from '../../src/infrastructure/key-store/postgres-key-store.js';
import { admin, inChildProcess, masterA, newSubject, sealed, storeWith, useKeyStoreDatabase } from '../key-store/key-store-fixture.js';

useKeyStoreDatabase('forgetting_artifact_keys');

function key(lookup: KeyLookup<ArtifactKey>): ArtifactKey {
  if (lookup.status !== 'found') throw new Error(`expected a key, got ${JSON.stringify(lookup)}`);
  return lookup.key;
}

async function wrappedArtifactKey(ref: SubjectRef, artifactId: string): Promise<Buffer> {
  const result = await admin().query<{ wrapped_key: Buffer }>(
    'SELECT wrapped_key FROM key_store_artifacts WHERE tenant = $1 AND subject = $2 AND artifact_id = $3',
    [ref.tenant, ref.subject, artifactId],
  );
  return result.rows[0]!.wrapped_key;
}

async function artifactFileHolds(needle: Buffer): Promise<boolean> {
  await admin().query('CHECKPOINT');
  const result = await admin().query<{ at: number }>(
    `SELECT position($1::bytea in pg_read_binary_file(pg_relation_filepath('key_store_artifacts'))) AS at`,
    [needle],
  );
  return result.rows[0]!.at > 0;
}

/**
 * VACUUM FULL keeps a row version that a snapshot older than the forget may
 * still see (any transaction in this database: an autovacuum ANALYZE under
 * load is enough), so the bytes leave the file at the first rewrite that runs
 * with no such snapshot: rewrite again for a while before judging.
 */
async function leavesArtifactFile(store: PostgresKeyStore, needle: Buffer): Promise<boolean> {
  for (let attempt = 0; attempt < 20; attempt++) {
    if (!(await artifactFileHolds(needle))) return true;
    await new Promise((done) => setTimeout(done, 250));
    await store.rewriteKeyTables(['key_store_artifacts']);
  }
  return false;
}

async function withMemories(store: PostgresKeyStore, ref: SubjectRef, ids: string[]): Promise<void> {
  for (const id of ids) await sealed(store, ref, id, `text of ${id}`);
}

describe('artifact keys', () => {
  it('forgetting a memory destroys the keys of the artifacts deriving from it, through parents, and only those', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await withMemories(store, ref, ['m-1', 'm-2', 'm-3']);
    const a = key(await store.artifactKey(ref, 'summary:a', { create: { derivedFrom: ['m-1', 'm-2'], parentArtifactId: null } }));
    const b = key(await store.artifactKey(ref, 'summary:b', { create: { derivedFrom: ['m-2'], parentArtifactId: 'summary:a' } }));
    const c = key(await store.artifactKey(ref, 'summary:c', { create: { derivedFrom: ['m-3'], parentArtifactId: 'summary:b' } }));
    const d = key(await store.artifactKey(ref, 'summary:d', { create: { derivedFrom: ['m-3'], parentArtifactId: null } }));
    expect(key(await store.artifactKey(ref, 'summary:a')).key.equals(a.key)).toBe(true);
    expect(key(await store.artifactKey(ref, 'summary:a', { create: { derivedFrom: ['m-3'], parentArtifactId: null } })).keyId).toBe(
      a.keyId,
    );
    expect((await store.artifactsDerivedFrom(ref, ['m-1'])).map((e) => e.artifactId)).toEqual(['summary:a', 'summary:b', 'summary:c']);

    const forgotten = await store.forgetMemory(ref, 'm-1');
    expect(forgotten.invalidatedArtifactIds).toEqual(['summary:a', 'summary:b', 'summary:c']);
    expect(forgotten.destroyedKeyIds).toHaveLength(4);
    expect(forgotten.destroyedKeyIds).toEqual(expect.arrayContaining([a.keyId, b.keyId, c.keyId]));
    for (const id of ['summary:a', 'summary:b', 'summary:c'])
      expect(await store.artifactKey(ref, id)).toMatchObject({ status: 'forgotten', scope: 'artifact' });
    expect(key(await store.artifactKey(ref, 'summary:d')).keyId).toBe(d.keyId);
    // A repeat destroys nothing more but still names what derives from it.
    expect(await store.forgetMemory(ref, 'm-1')).toMatchObject({
      forgottenNow: false,
      destroyedKeyIds: [],
      invalidatedArtifactIds: ['summary:a', 'summary:b', 'summary:c'],
    });
    const listed = await store.listArtifactKeyIds(ref);
    expect(listed.map((e) => [e.artifactId, e.state])).toEqual([
      ['summary:a', 'forgotten'],
      ['summary:b', 'forgotten'],
      ['summary:c', 'forgotten'],
      ['summary:d', 'live'],
    ]);
    expect(listed[1]).toMatchObject({ derivedFrom: ['m-2'], parentArtifactId: 'summary:a', keyId: b.keyId });

    // Nothing new derives from the forgotten memory or the destroyed parents.
    expect(await store.artifactKey(ref, 'summary:e', { create: { derivedFrom: ['m-1'], parentArtifactId: null } })).toMatchObject({
      status: 'forgotten',
      scope: 'artifact',
    });
    expect(await store.artifactKey(ref, 'summary:f', { create: { derivedFrom: ['m-3'], parentArtifactId: 'summary:c' } })).toMatchObject({
      status: 'forgotten',
      scope: 'artifact',
    });
    await expect(store.artifactKey(ref, 'bad id', { create: { derivedFrom: [], parentArtifactId: null } })).rejects.toMatchObject({
      field: 'artifactId',
    });
    await expect(
      store.artifactKey(ref, 'summary:g', { create: { derivedFrom: ['no/slash'], parentArtifactId: null } }),
    ).rejects.toMatchObject({ name: 'InvalidInput' });
  });

  it("seals under the artifact's key and hashes under its hash key; both are useless once it is destroyed, and its bytes leave the table's file", async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await withMemories(store, ref, ['m-1']);
    const derivation = { derivedFrom: ['m-1'], parentArtifactId: null };
    const out = await sealArtifactField(store, ref, 'summary:x', derivation, 'output', 'Call +1 555 0100');
    if (out.status !== 'sealed') throw new Error('not sealed');
    const again = await sealArtifactField(store, ref, 'summary:x', derivation, 'output', 'Call +1 555 0100');
    expect(again.status === 'sealed' && again.hash).toBe(out.hash);
    expect(await openArtifactField(store, ref, 'summary:x', 'output', out.sealed)).toEqual({
      status: 'opened',
      plaintext: 'Call +1 555 0100',
    });
    const wrapped = await wrappedArtifactKey(ref, 'summary:x');
    expect(await artifactFileHolds(wrapped)).toBe(true);

    await store.forgetMemory(ref, 'm-1');
    expect(await openArtifactField(store, ref, 'summary:x', 'output', out.sealed)).toMatchObject({ status: 'forgotten' });
    expect(await leavesArtifactFile(store, wrapped)).toBe(true);
  });

  it('forgetting the subject destroys its artifact keys', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await withMemories(store, ref, ['m-1']);
    const a = key(await store.artifactKey(ref, 'summary:s', { create: { derivedFrom: ['m-1'], parentArtifactId: null } }));
    const result = await store.forgetSubject(ref);
    expect(result.invalidatedArtifactIds).toEqual(['summary:s']);
    expect(result.destroyedKeyIds).toContain(a.keyId);
    expect(await store.artifactKey(ref, 'summary:s')).toMatchObject({ status: 'forgotten' });
  });

  it('rotating the master key re-wraps artifact keys', async () => {
    const ref = newSubject();
    await withMemories(storeWith(masterA), ref, ['m-1']);
    const before = key(
      await storeWith(masterA).artifactKey(ref, 'summary:r', { create: { derivedFrom: ['m-1'], parentArtifactId: null } }),
    );
    const masterB = masterKey(randomBytes(32));
    await storeWith(masterB, [masterA]).rewrapUnderCurrentMaster();
    expect(key(await storeWith(masterB).artifactKey(ref, 'summary:r')).key.equals(before.key)).toBe(true);
    const remaining = await admin().query<{ n: number }>('SELECT count(*)::int AS n FROM key_store_artifacts WHERE master_key_id = $1', [
      masterA.id,
    ]);
    expect(remaining.rows[0]!.n).toBe(0);
  });

  it('a summary key made while its input is being forgotten in another process is either destroyed by that forget or refused', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await withMemories(store, ref, ['m-target']);
    const makers = Array.from({ length: 3 }, () =>
      inChildProcess<string[]>(
        ref,
        `const statuses = [];
         for (let i = 0; i < 60; i++) {
           const made = await store.artifactKey({ tenant, subject }, 'summary:' + process.pid + ':' + i, { create: { derivedFrom: ['m-target'], parentArtifactId: null } });
           statuses.push(made.status);
         }
         console.log(JSON.stringify(statuses));`,
      ),
    );
    while ((await store.listArtifactKeyIds(ref)).length < 5) await new Promise((r) => setTimeout(r, 10));
    const forgetting = await store.forgetMemory(ref, 'm-target');
    const runs = await Promise.all(makers);
    for (const statuses of runs) {
      const first = statuses.indexOf('forgotten');
      expect(first).toBeGreaterThanOrEqual(0);
      expect(statuses.slice(first).every((s) => s === 'forgotten')).toBe(true);
    }
    const live = await admin().query<{ n: number }>(
      'SELECT count(*)::int AS n FROM key_store_artifacts WHERE tenant = $1 AND subject = $2 AND forgotten_at IS NULL',
      [ref.tenant, ref.subject],
    );
    expect(live.rows[0]!.n).toBe(0);
    const made = runs.flat().filter((s) => s === 'found').length;
    expect(forgetting.invalidatedArtifactIds).toHaveLength(made);
  }, 180_000);
});
