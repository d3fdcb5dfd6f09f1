// Making a memory's key. In one round trip when its subject is live (the
// common case of every record): the key is wrapped here, then key_store_make_memory_key
// (migration 0010) takes the subject's making lock, checks the subject is still
// live under the key that wrapped it, and inserts the row unless the memory has
// one. Anything else (the subject forgotten or re-keyed meanwhile) answers
// undefined, and the caller takes the transaction that handles every case
// (makeMemoryKeyInTransaction: it also makes the subject's own key first).
import { newKey } from '../cipher/key-material.js';
import { newKeyId, wrapMemoryKey } from './key-hierarchy.js';
import type { MasterKeyring } from './master-key.js';
import type { KeyForgotten, KeyFound, MemoryKey, SubjectRef } from './port.js';
import { openMemoryRow, openSubjectRow, type OpenedSubject } from './postgres-opened-rows.js';
import type { MemoryRow, Queryable } from './postgres-rows.js';
import { insertMemory, selectMemories, selectSubject } from './postgres-rows.js';
import { lockSubjectForMaking, lockText } from './postgres-subject-lock.js';

type LiveSubject = Extract<OpenedSubject, { readonly status: 'live' }>;

export async function makeMemoryKeyAtOnce(
  db: Queryable,
  keys: MasterKeyring,
  ref: SubjectRef,
  memoryId: string,
  subject: LiveSubject,
): Promise<KeyFound<MemoryKey> | KeyForgotten | undefined> {
  const key = newKey();
  const keyId = newKeyId('mk');
  const wrapped = wrapMemoryKey(subject.master, subject.secret, { ref, memoryId, keyId, subjectKeyId: subject.keyId }, key);
  const { rows } = await db.query<MemoryRow & { readonly outcome: 'row' | 'subject_changed' }>({
    name: 'key_store_make_memory_key',
    text: 'SELECT * FROM key_store_make_memory_key($1, $2, $3, $4, $5, $6, $7, $8)',
    values: [lockText(ref), ref.tenant, ref.subject, memoryId, keyId, subject.keyId, subject.master.id, wrapped],
  });
  const row = rows[0];
  if (row === undefined || row.outcome !== 'row') return undefined;
  if (row.key_id === keyId) return { status: 'found', created: true, key: { keyId, memoryId, key } };
  // The memory had a row already (made by a retry, or a tombstone): that one stands.
  return openMemoryRow(keys, ref, subject, row);
}

export async function makeMemoryKeyInTransaction(
  client: Queryable,
  keys: MasterKeyring,
  ref: SubjectRef,
  memoryId: string,
  createSubject: () => Promise<boolean>,
): Promise<KeyFound<MemoryKey> | KeyForgotten> {
  // A concurrent forget waits for this transaction, or this waits for it and then sees the tombstone.
  await lockSubjectForMaking(client, ref);
  let row = await selectSubject(client, ref);
  if (row === undefined) {
    await createSubject();
    row = await selectSubject(client, ref);
  }
  const subject = openSubjectRow(keys, ref, row);
  if (subject.status === 'forgotten') return subject;
  if (subject.status !== 'live') throw new Error(`key store: subject row of ${ref.tenant}/${ref.subject} vanished inside a transaction`);
  const existing = (await selectMemories(client, ref, [memoryId])).get(memoryId);
  if (existing !== undefined) return openMemoryRow(keys, ref, subject, existing);
  const key = newKey();
  const keyId = newKeyId('mk');
  const place = { ref, memoryId, keyId, subjectKeyId: subject.keyId };
  const inserted = await insertMemory(client, ref, {
    memoryId,
    keyId,
    subjectKeyId: subject.keyId,
    masterKeyId: subject.master.id,
    wrapped: wrapMemoryKey(subject.master, subject.secret, place, key),
  });
  if (inserted) return { status: 'found', created: true, key: { keyId, memoryId, key } };
  // Another transaction made (or forgot) it first: use theirs.
  const theirs = (await selectMemories(client, ref, [memoryId])).get(memoryId);
  if (theirs === undefined) throw new Error(`key store: memory row ${memoryId} vanished inside a transaction`);
  return openMemoryRow(keys, ref, subject, theirs);
}
