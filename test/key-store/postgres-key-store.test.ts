import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { KeyUnwrapFailed, SealBroken } from '../../src/infrastructure/cipher/errors.js';
import { keyedHash } from '../../src/infrastructure/cipher/keyed-hash.js';
import type { Sealed } from '../../src/infrastructure/cipher/sealed.js';
import type { KeyLookup, MemoryKey, SubjectRef } from '../../src/infrastructure/key-store/port.js';
import { admin, found, masterA, newSubject, opened, sealed, storeWith, useKeyStoreDatabase } from './key-store-fixture.js';

useKeyStoreDatabase('key_store');

describe('PostgresKeyStore', () => {
  it('makes keys once and opens what it sealed from another store instance', async () => {
    const ref = newSubject();
    const first = storeWith(masterA);
    const subject = await first.subjectKeys(ref, { create: true });
    expect(subject).toMatchObject({ status: 'found', created: true });
    expect(await first.subjectKeys(ref, { create: true })).toMatchObject({
      status: 'found',
      created: false,
      key: { keyId: found(subject).keyId },
    });

    const made = await first.memoryKey(ref, 'm-1', { create: true });
    expect(made).toMatchObject({ status: 'found', created: true, key: { memoryId: 'm-1' } });
    expect(found(made).keyId).toMatch(/^mk_/);
    expect(await first.memoryKey(ref, 'm-1', { create: true })).toMatchObject({
      status: 'found',
      created: false,
      key: { keyId: found(made).keyId },
    });

    const envelope = await sealed(first, ref, 'm-1', '+1 555 0100 7788');
    expect(envelope.keyId).toBe(found(made).keyId);
    const second = storeWith(masterA);
    expect(found(await second.memoryKey(ref, 'm-1')).key).toEqual(found(made).key);
    expect(found(await second.subjectKeys(ref)).dataKey).toEqual(found(subject).dataKey);
    expect(await opened(second, ref, 'm-1', envelope)).toBe('+1 555 0100 7788');
  });

  it('reports keys never made as absent, without making them', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    expect(await store.subjectKeys(ref)).toEqual({ status: 'absent' });
    expect(await store.memoryKey(ref, 'm-1')).toEqual({ status: 'absent' });
    expect(await store.listKeyIds(ref)).toEqual({ memories: [] });
  });

  it('detects a tampered envelope and an envelope moved to another memory', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    const envelope = await sealed(store, ref, 'm-1', 'sms');
    await sealed(store, ref, 'm-2', 'email');
    const ct = Buffer.from(envelope.ct, 'base64');
    ct[0] = ct[0]! ^ 0xff;
    await expect(opened(store, ref, 'm-1', { ...envelope, ct: ct.toString('base64') })).rejects.toBeInstanceOf(SealBroken);
    await expect(opened(store, ref, 'm-2', envelope)).rejects.toBeInstanceOf(SealBroken);
    await expect(opened(store, { ...ref, subject: `${ref.subject}-other` }, 'm-1', envelope)).resolves.toBe('absent');
  });

  it('forgetting one memory makes exactly that memory unreadable', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    const envelopes = new Map<string, Sealed>();
    for (const id of ['m-1', 'm-2', 'm-3']) envelopes.set(id, await sealed(store, ref, id, `secret of ${id}`));
    const doomedKeyId = envelopes.get('m-2')!.keyId;

    const result = await store.forgetMemory(ref, 'm-2');
    expect(result).toMatchObject({ forgottenNow: true, destroyedKeyIds: [doomedKeyId] });
    expect(result.forgottenAt).toBeInstanceOf(Date);

    expect(await opened(store, ref, 'm-2', envelopes.get('m-2')!)).toBe('forgotten');
    expect(await store.memoryKey(ref, 'm-2')).toMatchObject({ status: 'forgotten', scope: 'memory' });
    expect(await store.memoryKey(ref, 'm-2', { create: true })).toMatchObject({ status: 'forgotten', scope: 'memory' });
    expect(await opened(store, ref, 'm-1', envelopes.get('m-1')!)).toBe('secret of m-1');
    expect(await opened(store, ref, 'm-3', envelopes.get('m-3')!)).toBe('secret of m-3');

    const batch = await store.memoryKeys(ref, ['m-1', 'm-2', 'm-3', 'm-9']);
    expect([...batch.values()].map((lookup) => lookup.status)).toEqual(['found', 'forgotten', 'found', 'absent']);

    const again = await store.forgetMemory(ref, 'm-2');
    expect(again).toMatchObject({ forgottenNow: false, destroyedKeyIds: [] });
    expect(again.forgottenAt).toEqual(result.forgottenAt);

    const listed = await store.listKeyIds(ref);
    expect(listed.subject).toMatchObject({ state: 'live' });
    expect(listed.memories.map((m) => [m.memoryId, m.state, m.keyId])).toEqual([
      ['m-1', 'live', envelopes.get('m-1')!.keyId],
      ['m-2', 'forgotten', doomedKeyId],
      ['m-3', 'live', envelopes.get('m-3')!.keyId],
    ]);
  });

  it('a memory forgotten before it had a key never gets one', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    expect(await store.forgetMemories(ref, ['m-early', 'm-early'])).toMatchObject({ forgottenNow: true, destroyedKeyIds: [] });
    expect(await store.memoryKey(ref, 'm-early', { create: true })).toMatchObject({ status: 'forgotten', scope: 'memory' });
    expect(await store.memoryKey(ref, 'm-other', { create: true })).toMatchObject({ status: 'found', created: true });
  });

  it('forgetting a subject makes all its memories unreadable and leaves other subjects alone', async () => {
    const ref = newSubject();
    const bystander = newSubject();
    const store = storeWith(masterA);
    const envelopes = new Map<string, Sealed>();
    for (const id of ['m-1', 'm-2']) envelopes.set(id, await sealed(store, ref, id, `secret of ${id}`));
    const kept = await sealed(store, bystander, 'm-1', 'kept');
    const subjectKeyId = found(await store.subjectKeys(ref)).keyId;

    const result = await store.forgetSubject(ref);
    expect(result.forgottenNow).toBe(true);
    expect([...result.destroyedKeyIds].sort()).toEqual([subjectKeyId, envelopes.get('m-1')!.keyId, envelopes.get('m-2')!.keyId].sort());

    for (const [id, envelope] of envelopes) expect(await opened(store, ref, id, envelope)).toBe('forgotten');
    const lookups: Array<KeyLookup<MemoryKey>> = [...(await store.memoryKeys(ref, ['m-1', 'm-2', 'm-new'])).values()];
    expect(lookups.map((lookup) => (lookup.status === 'forgotten' ? lookup.scope : lookup.status))).toEqual([
      'subject',
      'subject',
      'subject',
    ]);
    expect(await store.subjectKeys(ref, { create: true })).toMatchObject({ status: 'forgotten', scope: 'subject' });
    expect(await store.memoryKey(ref, 'm-new', { create: true })).toMatchObject({ status: 'forgotten', scope: 'subject' });
    expect(await store.forgetSubject(ref)).toMatchObject({ forgottenNow: false, destroyedKeyIds: [] });

    expect(await opened(store, bystander, 'm-1', kept)).toBe('kept');
  });

  it('keyed hashes of one value differ between subjects and agree within one', async () => {
    const [a, b] = [newSubject(), newSubject()];
    const store = storeWith(masterA);
    const value = '{"text":"+1 555 0100 7788","type":"text"}';
    const hashA = keyedHash(found(await store.subjectKeys(a, { create: true })).hashKey, value);
    const hashB = keyedHash(found(await store.subjectKeys(b, { create: true })).hashKey, value);
    expect(hashA).not.toBe(hashB);
    expect(keyedHash(found(await storeWith(masterA).subjectKeys(a)).hashKey, value)).toBe(hashA);
    const keys = found(await store.subjectKeys(a));
    expect(keys.hashKey).not.toEqual(keys.dataKey);
  });

  it('a wrapped key copied into another row does not unwrap', async () => {
    const ref = newSubject();
    const store = storeWith(masterA);
    await store.memoryKey(ref, 'm-1', { create: true });
    await store.memoryKey(ref, 'm-2', { create: true });
    await admin().query(
      `UPDATE key_store_memories SET wrapped_key = (SELECT wrapped_key FROM key_store_memories WHERE tenant = $1 AND subject = $2 AND memory_id = 'm-2')
       WHERE tenant = $1 AND subject = $2 AND memory_id = 'm-1'`,
      [ref.tenant, ref.subject],
    );
    await expect(store.memoryKey(ref, 'm-1')).rejects.toBeInstanceOf(KeyUnwrapFailed);
    expect(await store.memoryKey(ref, 'm-2')).toMatchObject({ status: 'found' });
  });

  it('rejects bad ids naming the field, and writes nothing', async () => {
    const store = storeWith(masterA);
    const count = async () =>
      (
        await admin().query<{ n: number }>(
          'SELECT (SELECT count(*) FROM key_store_subjects) + (SELECT count(*) FROM key_store_memories) AS n',
        )
      ).rows[0]!.n;
    const before = await count();
    const attempts: Array<[Promise<unknown>, string]> = [
      [store.subjectKeys({ tenant: '', subject: 'u' }, { create: true }), 'tenant'],
      [store.subjectKeys({ tenant: 'acme', subject: 'a/b' }, { create: true }), 'subject'],
      [store.memoryKey({ tenant: 'acme', subject: 'u' }, ' ', { create: true }), 'memoryId'],
      [store.forgetMemories({ tenant: 'acme', subject: 'u' }, ['ok', 'bad id']), 'memoryIds.1'],
      [store.forgetSubject({ tenant: 'acme' } as SubjectRef), 'subject'],
    ];
    for (const [attempt, field] of attempts) {
      await expect(attempt).rejects.toBeInstanceOf(InvalidInput);
      await expect(attempt).rejects.toMatchObject({ field });
    }
    expect(await count()).toBe(before);
  });
});
