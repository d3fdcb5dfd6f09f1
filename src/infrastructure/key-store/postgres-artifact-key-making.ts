// Making and opening an artifact's key, given its subject opened (secret in
// memory). Making runs in the caller's transaction under the subject's
// shared lock: see postgres-artifact-keys.ts for why that settles races with
// a forget either way.
import { newKey } from '../cipher/key-material.js';
import { artifactHashKeyOf, newKeyId, unwrapArtifactKey, wrapArtifactKey } from './key-hierarchy.js';
import type { MasterKey } from './master-key.js';
import type { ArtifactDerivation, ArtifactKey, KeyForgotten, KeyFound, SubjectRef } from './port.js';
import { derivesFromForgotten, insertArtifact, selectArtifact, type ArtifactRow } from './postgres-artifact-keys.js';
import type { Queryable } from './postgres-rows.js';

export interface LiveSubject {
  readonly keyId: string;
  readonly secret: Buffer;
  /** The master key the subject's secret is wrapped under (new artifact keys are wrapped under it too). */
  readonly master: MasterKey;
}

const forgotten = (at: Date | null): KeyForgotten => ({ status: 'forgotten', scope: 'artifact', forgottenAt: at ?? new Date(0) });

export function openArtifactRow(
  ref: SubjectRef,
  subject: LiveSubject,
  row: ArtifactRow,
  masterById: (id: string) => MasterKey,
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
  const key = unwrapArtifactKey(masterById(row.master_key_id), subject.secret, place, row.wrapped_key);
  return { status: 'found', created: false, key: { keyId: row.key_id, artifactId: row.artifact_id, key, hashKey: artifactHashKeyOf(key) } };
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
