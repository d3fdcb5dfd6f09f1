// Reads of key rows for the key store (postgres-key-store.ts): a subject's
// memory keys in one round trip, opened (unwrapped-keys.ts remembers what was
// unwrapped before, by the very rows); the key ids and states of a subject,
// never material, for audit and deletion receipts.
import type pg from 'pg';
import type { MasterKeyring } from './master-key.js';
import type { KeyLookup, MemoryKey, SubjectKeyIds, SubjectKeys, SubjectRef } from './port.js';
import { openMemoryRow, openSubjectRow, subjectKeysOf, type MemoryKeyOpeners } from './postgres-opened-rows.js';
import { selectAllMemories, selectSubject, selectSubjectWithMemories, type MemoryRow, type SubjectRow } from './postgres-rows.js';
import type { UnwrappedKeys } from './unwrapped-keys.js';

/** The subject's keys and those of some of its memories, from one statement. */
export async function readSubjectAndMemoryKeys(
  pool: pg.Pool,
  keys: MasterKeyring,
  unwrapped: UnwrappedKeys,
  ref: SubjectRef,
  ids: readonly string[],
): Promise<{ subject: KeyLookup<SubjectKeys>; memories: Map<string, KeyLookup<MemoryKey>> }> {
  const read = await selectSubjectWithMemories(pool, ref, ids);
  const subject = openSubjectRow(keys, ref, read.subject, unwrapped);
  const rows = read.memories;
  const openers: MemoryKeyOpeners = new Map();
  const memories = new Map(
    ids.map((id): [string, KeyLookup<MemoryKey>] => {
      if (subject.status === 'forgotten') return [id, subject];
      const row = rows.get(id);
      if (row === undefined) return [id, { status: 'absent' }];
      return [id, openMemoryRow(keys, ref, subject, row, openers, unwrapped)];
    }),
  );
  return { subject: subject.status === 'live' ? { status: 'found', created: false, key: subjectKeysOf(subject) } : subject, memories };
}

export async function readMemoryKeys(
  pool: pg.Pool,
  keys: MasterKeyring,
  unwrapped: UnwrappedKeys,
  ref: SubjectRef,
  ids: readonly string[],
): Promise<Map<string, KeyLookup<MemoryKey>>> {
  return (await readSubjectAndMemoryKeys(pool, keys, unwrapped, ref, ids)).memories;
}

export async function listKeyIds(pool: pg.Pool, ref: SubjectRef): Promise<SubjectKeyIds> {
  const subject = await selectSubject(pool, ref);
  const memories = await selectAllMemories(pool, ref);
  const entry = (row: SubjectRow | MemoryRow) => ({
    keyId: row.key_id,
    state: row.forgotten_at === null ? ('live' as const) : ('forgotten' as const),
    createdAt: row.created_at,
    forgottenAt: row.forgotten_at,
  });
  return {
    ...(subject !== undefined ? { subject: entry(subject) } : {}),
    memories: memories.map((row) => ({ memoryId: row.memory_id, ...entry(row) })),
  };
}
