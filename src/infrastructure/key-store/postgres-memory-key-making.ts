// Making a memory's key. In one round trip when its subject is live (the
// common case of every record): the key is wrapped here, then key_store_make_memory_key
// (migration 0010) takes the subject's making lock, checks the subject is still
// live under the key that wrapped it, and inserts the row unless the memory has
// one. Anything else (the subject forgotten or re-keyed meanwhile) answers
// undefined, and the caller takes the transaction that handles every case
// (makeMemoryKeyInTransaction: it also makes the subject's own key first).
// Keys made at once go as one statement and commit (key_store_make_memory_keys,
// migration 0012: the same function per part), their subjects' locks taken in
// one order so that two groups never wait for each other around a forget.
import { newKey } from '../cipher/key-material.js';
import { newKeyId, wrapMemoryKey } from './key-hierarchy.js';
import type { MasterKeyring } from './master-key.js';
import type { KeyForgotten, KeyFound, MemoryKey, SubjectRef } from './port.js';
import { openMemoryRow, openSubjectRow, type OpenedSubject } from './postgres-opened-rows.js';
import type { MemoryRow, Queryable } from './postgres-rows.js';
import { insertMemory, selectMemories, selectSubject } from './postgres-rows.js';
import { lockSubjectForMaking, lockText } from './postgres-subject-lock.js';
import { ALONE, StatementGroups } from '../postgres/statement-groups.js';

type LiveSubject = Extract<OpenedSubject, { readonly status: 'live' }>;

type MadeRow = MemoryRow & { readonly outcome: 'row' | 'subject_changed' };

interface MemoryKeyPart {
  readonly lock: string;
  readonly ref: SubjectRef;
  readonly memoryId: string;
  readonly keyId: string;
  readonly subjectKeyId: string;
  readonly masterKeyId: string;
  readonly wrapped: Buffer;
}

const partValues = (p: MemoryKeyPart) =>
  [p.lock, p.ref.tenant, p.ref.subject, p.memoryId, p.keyId, p.subjectKeyId, p.masterKeyId, p.wrapped] as const;

/** Memory keys made at once, in one statement; a part whose group failed is made again alone. */
export class MemoryKeyMaking {
  readonly #groups: StatementGroups<MemoryKeyPart, MadeRow | undefined>;

  constructor(private readonly db: Queryable) {
    this.#groups = new StatementGroups({
      runAlone: (part) => this.#alone(part),
      runGroup: (parts) => this.#together(parts),
      keyOf: (part) => `${part.lock}\u001f${part.memoryId}`,
      maxItems: 64,
      maxInFlight: 2,
    });
  }

  make(part: MemoryKeyPart): Promise<MadeRow | undefined> {
    return this.#groups.run(part);
  }

  async #alone(part: MemoryKeyPart): Promise<MadeRow | undefined> {
    const { rows } = await this.db.query<MadeRow>({
      name: 'key_store_make_memory_key',
      text: 'SELECT * FROM key_store_make_memory_key($1, $2, $3, $4, $5, $6, $7, $8)',
      values: [...partValues(part)],
    });
    return rows[0];
  }

  async #together(parts: readonly MemoryKeyPart[]): Promise<(MadeRow | typeof ALONE)[]> {
    const order = parts.map((_, i) => i).sort((a, b) => (parts[a]!.lock < parts[b]!.lock ? -1 : parts[a]!.lock > parts[b]!.lock ? 1 : 0));
    const columns = Array.from({ length: 8 }, (_, c) => order.map((i) => partValues(parts[i]!)[c]));
    let rows: (MadeRow & { readonly part: number })[];
    try {
      rows = (
        await this.db.query<MadeRow & { readonly part: number }>({
          name: 'key_store_make_memory_keys',
          text: 'SELECT * FROM key_store_make_memory_keys($1, $2, $3, $4, $5, $6, $7, $8)',
          values: columns,
        })
      ).rows;
    } catch {
      // The statement made nothing (a deadlock, a lost connection): each part alone, reporting its own error.
      return parts.map(() => ALONE);
    }
    const made: (MadeRow | typeof ALONE)[] = parts.map(() => ALONE);
    for (const row of rows) made[order[row.part - 1]!] = row;
    return made;
  }
}

export async function makeMemoryKeyAtOnce(
  making: MemoryKeyMaking,
  keys: MasterKeyring,
  ref: SubjectRef,
  memoryId: string,
  subject: LiveSubject,
): Promise<KeyFound<MemoryKey> | KeyForgotten | undefined> {
  const key = newKey();
  const keyId = newKeyId('mk');
  const wrapped = wrapMemoryKey(subject.master, subject.secret, { ref, memoryId, keyId, subjectKeyId: subject.keyId }, key);
  const row = await making.make({
    lock: lockText(ref),
    ref,
    memoryId,
    keyId,
    subjectKeyId: subject.keyId,
    masterKeyId: subject.master.id,
    wrapped,
  });
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
