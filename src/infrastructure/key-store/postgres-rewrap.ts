// Master key rotation: re-wrap every live subject secret and memory key under
// the current master key, one subject per transaction. Once it has run, the
// previous master key can be destroyed, and with it every old wrapped copy
// left in dead tuples, WAL segments and backups (including the copies of keys
// forgotten since) becomes useless.
import type pg from 'pg';
import {
  unwrapArtifactKey,
  unwrapMemoryKey,
  unwrapSubjectSecret,
  wrapArtifactKey,
  wrapMemoryKey,
  wrapSubjectSecret,
} from './key-hierarchy.js';
import type { MasterKey, MasterKeyring } from './master-key.js';
import type { SubjectRef } from './port.js';
import type { MemoryRow, SubjectRow } from './postgres-rows.js';

export interface RewrapResult {
  readonly subjects: number;
  readonly memories: number;
}

const BATCH = 100;

export async function rewrapUnderCurrentMaster(
  pool: pg.Pool,
  keyring: MasterKeyring,
  masterById: (id: string) => MasterKey,
): Promise<RewrapResult> {
  const current = keyring.current;
  let subjects = 0;
  let memories = 0;
  for (;;) {
    const pending = await pool.query<SubjectRef>(
      `SELECT tenant, subject FROM key_store_subjects WHERE forgotten_at IS NULL AND master_key_id <> $1
       UNION
       SELECT tenant, subject FROM key_store_memories WHERE forgotten_at IS NULL AND master_key_id <> $1
       UNION
       SELECT tenant, subject FROM key_store_artifacts WHERE forgotten_at IS NULL AND master_key_id <> $1
       LIMIT ${BATCH}`,
      [current.id],
    );
    if (pending.rows.length === 0) return { subjects, memories };
    let progress = 0;
    for (const ref of pending.rows) {
      const done = await rewrapSubject(pool, { tenant: ref.tenant, subject: ref.subject }, current, masterById);
      subjects += done.subject ? 1 : 0;
      memories += done.memories;
      progress += (done.subject ? 1 : 0) + done.memories + done.artifacts;
    }
    if (progress === 0) throw new Error('key store rotation made no progress: a live memory key has no live subject key');
  }
}

async function rewrapSubject(
  pool: pg.Pool,
  ref: SubjectRef,
  current: MasterKey,
  masterById: (id: string) => MasterKey,
): Promise<{ subject: boolean; memories: number; artifacts: number }> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const row = (
      await client.query<SubjectRow>(
        `SELECT key_id, master_key_id, wrapped_secret, created_at, forgotten_at FROM key_store_subjects
         WHERE tenant = $1 AND subject = $2 AND forgotten_at IS NULL FOR UPDATE`,
        [ref.tenant, ref.subject],
      )
    ).rows[0];
    if (row === undefined || row.key_id === null || row.master_key_id === null || row.wrapped_secret === null) {
      await client.query('COMMIT');
      return { subject: false, memories: 0, artifacts: 0 };
    }
    const secret = unwrapSubjectSecret(masterById(row.master_key_id), ref, row.key_id, row.wrapped_secret);
    const subjectMoved = row.master_key_id !== current.id;
    if (subjectMoved) {
      await client.query(`UPDATE key_store_subjects SET master_key_id = $3, wrapped_secret = $4 WHERE tenant = $1 AND subject = $2`, [
        ref.tenant,
        ref.subject,
        current.id,
        wrapSubjectSecret(current, ref, row.key_id, secret),
      ]);
    }
    const stale = await client.query<MemoryRow>(
      `SELECT memory_id, key_id, subject_key_id, master_key_id, wrapped_key, created_at, forgotten_at FROM key_store_memories
       WHERE tenant = $1 AND subject = $2 AND forgotten_at IS NULL AND master_key_id <> $3 FOR UPDATE`,
      [ref.tenant, ref.subject, current.id],
    );
    for (const memory of stale.rows) {
      const place = { ref, memoryId: memory.memory_id, keyId: memory.key_id!, subjectKeyId: memory.subject_key_id! };
      const key = unwrapMemoryKey(masterById(memory.master_key_id!), secret, place, memory.wrapped_key!);
      await client.query(
        `UPDATE key_store_memories SET master_key_id = $4, wrapped_key = $5 WHERE tenant = $1 AND subject = $2 AND memory_id = $3`,
        [ref.tenant, ref.subject, memory.memory_id, current.id, wrapMemoryKey(current, secret, place, key)],
      );
    }
    const artifacts = await rewrapArtifacts(client, ref, secret, row.key_id, current, masterById);
    await client.query('COMMIT');
    return { subject: subjectMoved, memories: stale.rows.length, artifacts };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Artifact keys, like memory keys, are wrapped under a key that derives from the master key. */
async function rewrapArtifacts(
  client: pg.PoolClient,
  ref: SubjectRef,
  secret: Buffer,
  subjectKeyId: string,
  current: MasterKey,
  masterById: (id: string) => MasterKey,
): Promise<number> {
  const stale = await client.query<{
    artifact_id: string;
    key_id: string;
    subject_key_id: string;
    master_key_id: string;
    wrapped_key: Buffer;
  }>(
    `SELECT artifact_id, key_id, subject_key_id, master_key_id, wrapped_key FROM key_store_artifacts
     WHERE tenant = $1 AND subject = $2 AND forgotten_at IS NULL AND master_key_id <> $3 FOR UPDATE`,
    [ref.tenant, ref.subject, current.id],
  );
  for (const artifact of stale.rows) {
    if (artifact.subject_key_id !== subjectKeyId)
      throw new Error(`key store: artifact ${artifact.artifact_id} is wrapped under another subject key`);
    const place = { ref, artifactId: artifact.artifact_id, keyId: artifact.key_id, subjectKeyId: artifact.subject_key_id };
    const key = unwrapArtifactKey(masterById(artifact.master_key_id), secret, place, artifact.wrapped_key);
    await client.query(
      `UPDATE key_store_artifacts SET master_key_id = $4, wrapped_key = $5 WHERE tenant = $1 AND subject = $2 AND artifact_id = $3`,
      [ref.tenant, ref.subject, artifact.artifact_id, current.id, wrapArtifactKey(current, secret, place, key)],
    );
  }
  return stale.rows.length;
}
