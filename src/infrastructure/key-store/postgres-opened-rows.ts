// Key rows opened in memory: a subject row's secret unwrapped by the master
// key its row names, a memory row's key unwrapped under the subject's secret
// (or why there is none: forgotten, absent). Pure over the rows and the
// master keyring; the store (postgres-key-store.ts) reads the rows.
import { dataKeyOf, hashKeyOf, memoryKeyOpener, unwrapSubjectSecret, type MemoryKeyOpener } from './key-hierarchy.js';
import { MasterKeyUnknown } from './errors.js';
import type { MasterKey, MasterKeyring } from './master-key.js';
import type { KeyForgotten, KeyFound, MemoryKey, SubjectKeys, SubjectRef } from './port.js';
import type { MemoryRow, SubjectRow } from './postgres-rows.js';
import type { UnwrappedKeys } from './unwrapped-keys.js';

/** A subject row opened: its secret in memory, or why there is none. */
export type OpenedSubject =
  | { readonly status: 'live'; readonly keyId: string; readonly secret: Buffer; readonly master: MasterKey }
  | KeyForgotten
  | { readonly status: 'absent' };

/** Wrapping keys already derived while opening one subject's rows, by master key id. */
export type MemoryKeyOpeners = Map<string, MemoryKeyOpener>;

const forgotten = (scope: KeyForgotten['scope'], at: Date | null): KeyForgotten => ({
  status: 'forgotten',
  scope,
  forgottenAt: at ?? new Date(0),
});

export function masterById(keys: MasterKeyring, id: string): MasterKey {
  const { current, previous } = keys;
  const found = [current, ...previous].find((key) => key.id === id);
  if (found === undefined)
    throw new MasterKeyUnknown(
      id,
      [current, ...previous].map((key) => key.id),
    );
  return found;
}

/** `unwrapped`: keys this process unwrapped before, found again only by this very row (unwrapped-keys.ts). */
export function openSubjectRow(
  keys: MasterKeyring,
  ref: SubjectRef,
  row: SubjectRow | undefined,
  unwrapped?: UnwrappedKeys,
): OpenedSubject {
  if (row === undefined) return { status: 'absent' };
  if (row.forgotten_at !== null || row.wrapped_secret === null || row.key_id === null || row.master_key_id === null) {
    return forgotten('subject', row.forgotten_at);
  }
  const master = masterById(keys, row.master_key_id);
  const { key_id: keyId, wrapped_secret: wrapped } = row;
  const unwrap = () => unwrapSubjectSecret(master, ref, keyId, wrapped);
  const secret = unwrapped ? unwrapped.open(ref, `s\u0000${keyId}\u0000${master.id}`, wrapped, unwrap) : unwrap();
  return { status: 'live', keyId, master, secret };
}

/** A live subject's keys for sealing and keyed hashes. */
export function subjectKeysOf(subject: { readonly keyId: string; readonly secret: Buffer }): SubjectKeys {
  return { keyId: subject.keyId, dataKey: dataKeyOf(subject.secret), hashKey: hashKeyOf(subject.secret) };
}

export function openMemoryRow(
  keys: MasterKeyring,
  ref: SubjectRef,
  subject: OpenedSubject,
  row: MemoryRow,
  openers: MemoryKeyOpeners = new Map(),
  unwrapped?: UnwrappedKeys,
): KeyFound<MemoryKey> | KeyForgotten {
  if (
    row.forgotten_at !== null ||
    row.wrapped_key === null ||
    row.key_id === null ||
    row.subject_key_id === null ||
    row.master_key_id === null
  ) {
    return forgotten('memory', row.forgotten_at);
  }
  if (subject.status === 'forgotten') return subject;
  if (subject.status !== 'live') throw new Error(`key store: memory ${row.memory_id} has a key but its subject has none`);
  const { master_key_id: masterId, wrapped_key: wrapped } = row;
  const place = { ref, memoryId: row.memory_id, keyId: row.key_id, subjectKeyId: row.subject_key_id };
  const unwrap = () => {
    // The memory's wrapping key derives from the master key named on its own row (they differ only mid-rotation).
    let open = openers.get(masterId);
    if (open === undefined) {
      open = memoryKeyOpener(masterById(keys, masterId), subject.secret);
      openers.set(masterId, open);
    }
    return open(place, wrapped);
  };
  // Named by everything the unwrap depends on: the ids in its associated data, the subject's secret and the master key.
  const name = `m\u0000${place.memoryId}\u0000${place.keyId}\u0000${place.subjectKeyId}\u0000${subject.keyId}\u0000${masterId}`;
  const key = unwrapped ? unwrapped.open(ref, name, wrapped, unwrap) : unwrap();
  return { status: 'found', created: false, key: { keyId: row.key_id, memoryId: row.memory_id, key } };
}
