// Sealing and opening through the key store, for command handlers and read
// paths: the key is looked up (or made) and the value's place bound as
// associated data. A forgotten key comes back as a KeyForgotten result.
import { SealBroken } from '../cipher/errors.js';
import { keyedHash } from '../cipher/keyed-hash.js';
import { open, seal } from '../cipher/seal.js';
import type { Sealed } from '../cipher/sealed.js';
import type { ArtifactDerivation, KeyAbsent, KeyForgotten, KeyStore, SubjectRef } from './port.js';

export type SealOutcome = { readonly status: 'sealed'; readonly sealed: Sealed } | KeyForgotten;
export type OpenOutcome = { readonly status: 'opened'; readonly plaintext: string } | KeyForgotten | KeyAbsent;

/** Seals one field of a memory under the memory's own key (made on first use). */
export async function sealMemoryField(
  store: KeyStore,
  ref: SubjectRef,
  memoryId: string,
  field: string,
  plaintext: string,
): Promise<SealOutcome> {
  const found = await store.memoryKey(ref, memoryId, { create: true });
  if (found.status !== 'found') return found;
  return { status: 'sealed', sealed: seal(plaintext, found.key.key, found.key.keyId, { ...ref, memoryId, field }) };
}

/** Opens one field of a memory; SealBroken when the envelope was altered or belongs elsewhere. */
export async function openMemoryField(
  store: KeyStore,
  ref: SubjectRef,
  memoryId: string,
  field: string,
  sealed: Sealed,
): Promise<OpenOutcome> {
  const found = await store.memoryKey(ref, memoryId);
  if (found.status !== 'found') return found;
  if (found.key.keyId !== sealed.keyId) throw new SealBroken(sealed.keyId);
  return { status: 'opened', plaintext: open(sealed, found.key.key, { ...ref, memoryId, field }) };
}

/** Seals a subject-level value (e.g. a summary's text) under the subject's data key; `recordId` names what it belongs to. */
export async function sealSubjectField(
  store: KeyStore,
  ref: SubjectRef,
  recordId: string,
  field: string,
  plaintext: string,
): Promise<SealOutcome> {
  const found = await store.subjectKeys(ref, { create: true });
  if (found.status !== 'found') return found;
  return { status: 'sealed', sealed: seal(plaintext, found.key.dataKey, found.key.keyId, { ...ref, memoryId: recordId, field }) };
}

export async function openSubjectField(
  store: KeyStore,
  ref: SubjectRef,
  recordId: string,
  field: string,
  sealed: Sealed,
): Promise<OpenOutcome> {
  const found = await store.subjectKeys(ref);
  if (found.status !== 'found') return found;
  if (found.key.keyId !== sealed.keyId) throw new SealBroken(sealed.keyId);
  return { status: 'opened', plaintext: open(sealed, found.key.dataKey, { ...ref, memoryId: recordId, field }) };
}

/** The subject's keyed hash of a canonical string (valueHash, contentHash). */
export async function subjectKeyedHash(
  store: KeyStore,
  ref: SubjectRef,
  canonical: string,
): Promise<{ readonly status: 'hashed'; readonly hash: string } | KeyForgotten> {
  const found = await store.subjectKeys(ref, { create: true });
  if (found.status !== 'found') return found;
  return { status: 'hashed', hash: keyedHash(found.key.hashKey, canonical) };
}

export type ArtifactSealOutcome = { readonly status: 'sealed'; readonly sealed: Sealed; readonly hash: string } | KeyForgotten;

/**
 * Seals an artifact's field under the artifact's own key (made on first use,
 * recording what it derives from), with a keyed hash of the plaintext under
 * the artifact's hash key: both are gone once the key is destroyed.
 */
export async function sealArtifactField(
  store: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  derivation: ArtifactDerivation,
  field: string,
  plaintext: string,
): Promise<ArtifactSealOutcome> {
  const found = await store.artifactKey(ref, artifactId, { create: derivation });
  if (found.status !== 'found') return found;
  return {
    status: 'sealed',
    sealed: seal(plaintext, found.key.key, found.key.keyId, { ...ref, memoryId: artifactId, field }),
    hash: keyedHash(found.key.hashKey, plaintext),
  };
}

/** Opens an artifact's field; SealBroken when the envelope was altered or belongs elsewhere. */
export async function openArtifactField(
  store: KeyStore,
  ref: SubjectRef,
  artifactId: string,
  field: string,
  sealed: Sealed,
): Promise<OpenOutcome> {
  const found = await store.artifactKey(ref, artifactId);
  if (found.status !== 'found') return found;
  if (found.key.keyId !== sealed.keyId) throw new SealBroken(sealed.keyId);
  return { status: 'opened', plaintext: open(sealed, found.key.key, { ...ref, memoryId: artifactId, field }) };
}
