// Making and opening an artifact's key, given its subject opened (secret in
// memory). Making runs in the caller's transaction under the subject's
// shared lock: see postgres-artifact-keys.ts for why that settles races with
// a forget either way.
import { newKey } from '../cipher/key-material.js';
import { artifactHashKeyOf, newKeyId, unwrapArtifactKey, wrapArtifactKey } from './key-hierarchy.js';
import type { MasterKey } from './master-key.js';
import type { ArtifactDerivation, ArtifactKey, KeyForgotten, KeyFound, SubjectRef } from './port.js';
import { derivesFromForgotten, insertArtifact, selectArtifact, type OpenableArtifactRow } from './postgres-artifact-keys.js';
import type { Queryable } from './postgres-rows.js';
import type { UnwrappedKeys } from './unwrapped-keys.js';

export interface LiveSubject {
  readonly keyId: string;
  readonly secret: Buffer;
  /** The master key the subject's secret is wrapped under (new artifact keys are wrapped under it too). */
  readonly master: MasterKey;
}

const forgotten = (at: Date | null): KeyForgotten => ({ status: 'forgotten', scope: 'artifact', forgottenAt: at ?? new Date(0) });

/**
 * The artifact's key from its row; `unwrapped` keeps it (and its hash key),
 * named by everything the unwrap depends on, so a recall of a summary does
 * not run AES-GCM and two HKDFs again for the row it has just read.
 */
export function openArtifactRow(
  ref: SubjectRef,
  subject: LiveSubject,
  row: OpenableArtifactRow,
  masterById: (id: string) => MasterKey,
  unwrapped?: UnwrappedKeys,
): KeyFound<ArtifactKey> | KeyForgotten {
  if (
    row.forgotten_at !== null ||
    row.wrapped_key === null ||
    row.key_id === null ||
    row.subject_key_id === null ||
    row.master_key_id === null
  )
    return forgotten(row.forgotten_at);
  const place = { ref, artifactId: row.artifact_id, keyId: row.key_id, subjectKeyId: row.subject_key_id };
  const wrapped = row.wrapped_key;
  const unwrap = () => unwrapArtifactKey(masterById(row.master_key_id!), subject.secret, place, wrapped);
  const name = `a\u0000${row.artifact_id}\u0000${row.key_id}\u0000${row.subject_key_id}\u0000${subject.keyId}\u0000${row.master_key_id}`;
  const key = unwrapped ? unwrapped.open(ref, name, wrapped, unwrap) : unwrap();
  const hashKey = unwrapped ? unwrapped.open(ref, `${name}\u0000hash`, wrapped, () => artifactHashKeyOf(key)) : artifactHashKeyOf(key);
  return { status: 'found', created: false, key: { keyId: row.key_id, artifactId: row.artifact_id, key, hashKey } };
}

/** The artifact's key: the existing one, a new one, or refused when what it derives from is forgotten. */
export async function makeArtifactKey(
  db: Queryable,
  ref: SubjectRef,
  artifactId: string,
  derivation: ArtifactDerivation,
  subject: LiveSubject,
  masterById: (id: string) => MasterKey,
): Promise<KeyFound<ArtifactKey> | KeyForgotten> {
  const existing = await selectArtifact(db, ref, artifactId);
  if (existing !== undefined) return openArtifactRow(ref, subject, existing, masterById);
  if (await derivesFromForgotten(db, ref, derivation.derivedFrom, derivation.parentArtifactId)) return forgotten(new Date());
  const key = newKey();
  const keyId = newKeyId('ak');
  const place = { ref, artifactId, keyId, subjectKeyId: subject.keyId };
  const inserted = await insertArtifact(db, ref, {
    artifactId,
    keyId,
    subjectKeyId: subject.keyId,
    masterKeyId: subject.master.id,
    wrapped: wrapArtifactKey(subject.master, subject.secret, place, key),
    ...derivation,
  });
  if (inserted) return { status: 'found', created: true, key: { keyId, artifactId, key, hashKey: artifactHashKeyOf(key) } };
  // Another transaction made (or forgot) it first: use theirs.
  const theirs = await selectArtifact(db, ref, artifactId);
  if (theirs === undefined) throw new Error(`key store: artifact row ${artifactId} vanished inside a transaction`);
  return openArtifactRow(ref, subject, theirs, masterById);
}
