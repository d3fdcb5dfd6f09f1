// The key store in the app's PostgreSQL (tables: see the key store migration).
// Keys are wrapped by the master key (key-hierarchy.ts), so the database alone
// never holds a usable key. Unwrapped keys are kept in memory, but found only
// by their rows read again (unwrapped-keys.ts): a key forgotten by another
// process is gone here at the next call.
import pg from 'pg';
import { Pool } from '../postgres/pool.js';
import { newKey } from '../cipher/key-material.js';
import { validArtifactId, validDerivation, validMemoryId, validMemoryIds, validSubjectRef } from './input.js';
import { newKeyId, wrapSubjectSecret } from './key-hierarchy.js';
import type { MasterKeyring } from './master-key.js';
import type {
  ArtifactDerivation,
  ArtifactKey,
  ArtifactKeyEntry,
  ForgetResult,
  KeyForgotten,
  KeyFound,
  KeyLookup,
  KeyStore,
  MemoryKey,
  SealingKeys,
  SubjectAndMemoryKeys,
  SubjectKeyIds,
  SubjectKeys,
  SubjectRef,
} from './port.js';
import { makeArtifactKey, openArtifactRow } from './postgres-artifact-key-making.js';
import {
  allArtifacts,
  artifactsDerivedFrom,
  selectSubjectWithArtifact,
  tombstoneAllArtifacts,
  tombstoneArtifactsDerivedFrom,
} from './postgres-artifact-keys.js';
import { rewriteTables, tombstoneMemories, tombstoneSubject, type KeyTable } from './postgres-forget.js';
import { insertSubject, selectSubject, type Queryable } from './postgres-rows.js';
import { rewrapUnderCurrentMaster, type RewrapResult } from './postgres-rewrap.js';
import { lockSubjectForMaking } from './postgres-subject-lock.js';
import { makeMemoryKeyAtOnce, makeMemoryKeyInTransaction, MemoryKeyMaking } from './postgres-memory-key-making.js';
import { UnwrappedKeys } from './unwrapped-keys.js';
import { listKeyIds, readMemoryKeys, readSubjectAndMemoryKeys } from './postgres-key-reads.js';
import { masterById, openSubjectRow, subjectKeysOf } from './postgres-opened-rows.js';

export interface PostgresKeyStoreOptions {
  /** A pool the caller owns (close() leaves it open)… */
  readonly pool?: pg.Pool;
  /** …or a connection string for a pool of its own. */
  readonly connectionString?: string;
  readonly masterKeys: MasterKeyring;
  /**
   * VACUUM FULL the key tables after each forget (default true), so no
   * relation file keeps a forgotten key's old row version. Turn it off only
   * when the caller forgets in bulk and calls rewriteKeyTables() at the end.
   */
  readonly rewriteAfterForget?: boolean;
  /** Unwrapped keys kept in memory, found again only by their very rows (unwrapped-keys.ts); 0 unwraps every read. Default 100,000. */
  readonly unwrappedKeys?: number;
}

export class PostgresKeyStore implements KeyStore {
  private readonly pool: pg.Pool;
  private readonly ownsPool: boolean;
  private readonly masterKeys: MasterKeyring;
  private readonly rewriteAfterForget: boolean;
  private readonly unwrapped: UnwrappedKeys;
  private readonly making: MemoryKeyMaking;

  constructor(options: PostgresKeyStoreOptions) {
    if (options.pool) {
      this.pool = options.pool;
      this.ownsPool = false;
    } else if (options.connectionString) {
      this.pool = new Pool({ connectionString: options.connectionString, max: 4, application_name: 'memledger-key-store' });
      this.ownsPool = true;
    } else {
      throw new TypeError('PostgresKeyStore needs a pool or a connectionString');
    }
    this.masterKeys = options.masterKeys;
    this.rewriteAfterForget = options.rewriteAfterForget ?? true;
    this.unwrapped = new UnwrappedKeys(options.unwrappedKeys ?? 100_000);
    this.making = new MemoryKeyMaking(this.pool);
  }

  subjectKeys(ref: SubjectRef, options: { readonly create: true }): Promise<KeyFound<SubjectKeys> | KeyForgotten>;
  subjectKeys(ref: SubjectRef, options?: { readonly create?: boolean }): Promise<KeyLookup<SubjectKeys>>;
  async subjectKeys(ref: SubjectRef, options: { readonly create?: boolean } = {}): Promise<KeyLookup<SubjectKeys>> {
    const valid = validSubjectRef(ref);
    let row = await selectSubject(this.pool, valid);
    let created = false;
    if (row === undefined && options.create) {
      created = await this.createSubject(this.pool, valid);
      row = await selectSubject(this.pool, valid);
    }
    const opened = openSubjectRow(this.masterKeys, valid, row, this.unwrapped);
    if (opened.status !== 'live') return opened;
    return { status: 'found', created, key: subjectKeysOf(opened) };
  }

  memoryKey(ref: SubjectRef, memoryId: string, options: { readonly create: true }): Promise<KeyFound<MemoryKey> | KeyForgotten>;
  memoryKey(ref: SubjectRef, memoryId: string, options?: { readonly create?: boolean }): Promise<KeyLookup<MemoryKey>>;
  async memoryKey(ref: SubjectRef, memoryId: string, options: { readonly create?: boolean } = {}): Promise<KeyLookup<MemoryKey>> {
    const valid = validSubjectRef(ref);
    const id = validMemoryId(memoryId);
    if (!options.create) return (await readMemoryKeys(this.pool, this.masterKeys, this.unwrapped, valid, [id])).get(id)!;
    const live = openSubjectRow(this.masterKeys, valid, await selectSubject(this.pool, valid), this.unwrapped);
    if (live.status === 'live') {
      const made = await makeMemoryKeyAtOnce(this.making, this.masterKeys, valid, id, live);
      if (made !== undefined) return made;
    }
    return this.inTransaction((client) =>
      makeMemoryKeyInTransaction(client, this.masterKeys, valid, id, () => this.createSubject(client, valid)),
    );
  }

  async memoryKeyEpoch(ref: SubjectRef): Promise<string | undefined> {
    const valid = validSubjectRef(ref);
    const { rows } = await this.pool.query<{ epoch: string }>({
      name: 'key_store_memory_key_epoch',
      text: `SELECT memory_key_epoch::text AS epoch FROM key_store_subjects
              WHERE tenant = $1 AND subject = $2 AND forgotten_at IS NULL AND wrapped_secret IS NOT NULL`,
      values: [valid.tenant, valid.subject],
    });
    return rows[0]?.epoch;
  }

  async sealingKeys(ref: SubjectRef, memoryId: string): Promise<SealingKeys | KeyForgotten> {
    const valid = validSubjectRef(ref);
    const id = validMemoryId(memoryId);
    const known = this.unwrapped.liveSubject(valid);
    if (known) {
      // The statement confirms the subject is still live under this key and master key, or answers undefined.
      const made = await makeMemoryKeyAtOnce(this.making, this.masterKeys, valid, id, known);
      if (made?.status === 'found') return { status: 'found', subject: subjectKeysOf(known), memory: made.key };
      if (made?.status === 'forgotten') return made;
      this.unwrapped.dropSubject(valid);
    }
    let row = await selectSubject(this.pool, valid);
    if (row === undefined) {
      await this.createSubject(this.pool, valid);
      row = await selectSubject(this.pool, valid);
    }
    const live = openSubjectRow(this.masterKeys, valid, row, this.unwrapped);
    if (live.status === 'live') {
      const made = await makeMemoryKeyAtOnce(this.making, this.masterKeys, valid, id, live);
      if (made?.status === 'forgotten') return made;
      if (made !== undefined) {
        this.unwrapped.rememberLive(valid, live);
        return { status: 'found', subject: subjectKeysOf(live), memory: made.key };
      }
    }
    // The subject forgotten or re-keyed meanwhile: each key on its own, the memory's in the transaction that handles every case.
    const [subject, memory] = [await this.subjectKeys(valid, { create: true }), await this.memoryKey(valid, id, { create: true })];
    if (subject.status !== 'found') return subject;
    if (memory.status !== 'found') return memory;
    return { status: 'found', subject: subject.key, memory: memory.key };
  }

  async memoryKeys(ref: SubjectRef, memoryIds: readonly string[]): Promise<ReadonlyMap<string, KeyLookup<MemoryKey>>> {
    return readMemoryKeys(this.pool, this.masterKeys, this.unwrapped, validSubjectRef(ref), validMemoryIds(memoryIds));
  }

  async subjectAndMemoryKeys(ref: SubjectRef, memoryIds: readonly string[]): Promise<SubjectAndMemoryKeys> {
    return readSubjectAndMemoryKeys(this.pool, this.masterKeys, this.unwrapped, validSubjectRef(ref), validMemoryIds(memoryIds));
  }

  async forgetMemory(ref: SubjectRef, memoryId: string): Promise<ForgetResult> {
    return this.forgetMemories(ref, [validMemoryId(memoryId)]);
  }

  async forgetMemories(ref: SubjectRef, memoryIds: readonly string[]): Promise<ForgetResult> {
    const valid = validSubjectRef(ref);
    const ids = validMemoryIds(memoryIds);
    if (ids.length === 0) throw new TypeError('forgetMemories needs at least one memory id');
    const { done, artifacts } = await this.inTransaction(async (client) => {
      const done = await tombstoneMemories(client, valid, ids);
      return { done, artifacts: await tombstoneArtifactsDerivedFrom(client, valid, ids) };
    });
    this.unwrapped.dropSubject(valid);
    if (this.rewriteAfterForget)
      await this.rewriteKeyTables([
        'key_store_memories',
        ...(artifacts.destroyedKeyIds.length > 0 ? ['key_store_artifacts' as const] : []),
      ]);
    return {
      forgottenNow: done.changed || artifacts.destroyedKeyIds.length > 0,
      destroyedKeyIds: [...done.destroyedKeyIds, ...artifacts.destroyedKeyIds],
      invalidatedArtifactIds: artifacts.artifactIds,
      forgottenAt: done.forgottenAt,
    };
  }

  async forgetSubject(ref: SubjectRef): Promise<ForgetResult> {
    const valid = validSubjectRef(ref);
    const { done, artifacts } = await this.inTransaction(async (client) => {
      const done = await tombstoneSubject(client, valid);
      return { done, artifacts: await tombstoneAllArtifacts(client, valid) };
    });
    // After the commit: a read from now on finds no row, so nothing puts the keys back.
    this.unwrapped.dropSubject(valid);
    if (this.rewriteAfterForget) await this.rewriteKeyTables();
    return {
      forgottenNow: done.changed || artifacts.destroyedKeyIds.length > 0,
      destroyedKeyIds: [...done.destroyedKeyIds, ...artifacts.destroyedKeyIds],
      invalidatedArtifactIds: artifacts.artifactIds,
      forgottenAt: done.forgottenAt,
    };
  }

  artifactKey(
    ref: SubjectRef,
    artifactId: string,
    options: { readonly create: ArtifactDerivation },
  ): Promise<KeyFound<ArtifactKey> | KeyForgotten>;
  artifactKey(ref: SubjectRef, artifactId: string, options?: { readonly create?: ArtifactDerivation }): Promise<KeyLookup<ArtifactKey>>;
  async artifactKey(
    ref: SubjectRef,
    artifactId: string,
    options: { readonly create?: ArtifactDerivation } = {},
  ): Promise<KeyLookup<ArtifactKey>> {
    const valid = validSubjectRef(ref);
    const id = validArtifactId(artifactId);
    const master = (masterId: string) => masterById(this.masterKeys, masterId);
    if (!options.create) {
      const read = await selectSubjectWithArtifact(this.pool, valid, id);
      const subject = openSubjectRow(this.masterKeys, valid, read.subject, this.unwrapped);
      if (subject.status !== 'live') return subject;
      const row = read.artifact;
      return row === undefined ? { status: 'absent' } : openArtifactRow(valid, subject, row, master, this.unwrapped);
    }
    const derivation = validDerivation(options.create);
    return this.inTransaction(async (client) => {
      // A concurrent forget of what it derives from waits for this transaction, or this waits for it and then sees the tombstones.
      await lockSubjectForMaking(client, valid);
      const subject = openSubjectRow(this.masterKeys, valid, await selectSubject(client, valid));
      if (subject.status === 'forgotten') return subject;
      if (subject.status !== 'live')
        throw new Error(`key store: artifact ${id} of ${valid.tenant}/${valid.subject}, whose subject has no key`);
      return makeArtifactKey(client, valid, id, derivation, subject, master);
    });
  }

  async artifactsDerivedFrom(ref: SubjectRef, memoryIds: readonly string[]): Promise<readonly ArtifactKeyEntry[]> {
    const ids = validMemoryIds(memoryIds);
    return ids.length === 0 ? [] : artifactsDerivedFrom(this.pool, validSubjectRef(ref), ids);
  }

  async listArtifactKeyIds(ref: SubjectRef): Promise<readonly ArtifactKeyEntry[]> {
    return allArtifacts(this.pool, validSubjectRef(ref));
  }

  async listKeyIds(ref: SubjectRef): Promise<SubjectKeyIds> {
    return listKeyIds(this.pool, validSubjectRef(ref));
  }

  unwrappedKeysHeld(ref: SubjectRef, of: 'subject' | readonly string[]): number {
    return this.unwrapped.held(validSubjectRef(ref), of);
  }

  /** VACUUM FULL: see rewriteAfterForget and the key store migration's note on residue. */
  async rewriteKeyTables(tables: readonly KeyTable[] = ['key_store_subjects', 'key_store_memories', 'key_store_artifacts']): Promise<void> {
    await rewriteTables(this.pool, tables);
  }

  /** Re-wraps every live row still under a previous master key; afterwards the old key can be destroyed. */
  async rewrapUnderCurrentMaster(): Promise<RewrapResult> {
    const result = await rewrapUnderCurrentMaster(this.pool, this.masterKeys, (id) => masterById(this.masterKeys, id));
    await this.rewriteKeyTables();
    return result;
  }

  async close(): Promise<void> {
    if (this.ownsPool) await this.pool.end();
  }

  private async createSubject(db: Queryable, ref: SubjectRef): Promise<boolean> {
    const keyId = newKeyId('sk');
    const master = this.masterKeys.current;
    return insertSubject(db, ref, keyId, master.id, wrapSubjectSecret(master, ref, keyId, newKey()));
  }

  private async inTransaction<T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      client.release();
      return result;
    } catch (error) {
      await client.query('ROLLBACK').then(
        () => client.release(),
        (rollbackError: Error) => client.release(rollbackError),
      );
      throw error;
    }
  }
}
