// The key hierarchy, as pure functions over bytes:
//
//   master key (outside the database)
//     └─ wraps each subject's 32-byte secret            (key_store_subjects)
//          ├─ HKDF → dataKey   (AES-256-GCM, subject-level sealed values)
//          ├─ HKDF → hashKey   (HMAC-SHA256 keyed hashes)
//          ├─ HKDF(secret, salt = master) → memory wrapping key
//          │    └─ wraps each memory's 32-byte key       (key_store_memories)
//          └─ HKDF(secret, salt = master) → artifact wrapping key
//               └─ wraps each artifact's 32-byte key     (key_store_artifacts)
//                    └─ HKDF → artifact hash key (its output's keyed hash)
//
// dataKey and hashKey depend on the secret alone, so rotating the master key
// never changes what sealed events need. The memory wrapping key depends on the
// master key too, so a rotation re-wraps memory keys and retires every old
// wrapped copy (dead tuples, WAL, backups) once the old master key is destroyed.
import { hkdfSync, randomBytes } from 'node:crypto';
import { associatedData } from '../cipher/associated-data.js';
import { KEY_BYTES } from '../cipher/key-material.js';
import { unwrapKey, wrapKey } from '../cipher/key-wrap.js';
import type { MasterKey } from './master-key.js';
import type { SubjectRef } from './port.js';

function derive(secret: Buffer, salt: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, salt, info, KEY_BYTES));
}

// Keys derived from a subject's secret, per secret object: the key store hands
// out the same secret object for the same row while it keeps it unwrapped
// (unwrapped-keys.ts), so a record does not run three HKDFs again; an entry
// goes when its secret object does.
const derivedFromSecret = new WeakMap<Buffer, Map<string, Buffer>>();

function deriveFromSecret(secret: Buffer, salt: Buffer, saltName: string, info: string): Buffer {
  let derived = derivedFromSecret.get(secret);
  if (derived === undefined) {
    derived = new Map();
    derivedFromSecret.set(secret, derived);
  }
  const name = `${info}\u0000${saltName}`;
  let key = derived.get(name);
  if (key === undefined) {
    key = derive(secret, salt, info);
    derived.set(name, key);
  }
  return key;
}

export function newKeyId(prefix: 'sk' | 'mk' | 'ak'): string {
  return `${prefix}_${randomBytes(16).toString('base64url')}`;
}

const NO_SALT = Buffer.alloc(0);

export function dataKeyOf(secret: Buffer): Buffer {
  return deriveFromSecret(secret, NO_SALT, '', 'memledger/v1/subject-data-key');
}

export function hashKeyOf(secret: Buffer): Buffer {
  return deriveFromSecret(secret, NO_SALT, '', 'memledger/v1/subject-hash-key');
}

function memoryWrappingKey(secret: Buffer, master: MasterKey): Buffer {
  return deriveFromSecret(secret, master.bytes, master.id, 'memledger/v1/memory-key-wrap');
}

function subjectSecretAad(ref: SubjectRef, keyId: string): Buffer {
  return associatedData('memledger/subject-secret/v1', { tenant: ref.tenant, subject: ref.subject, keyId });
}

function memoryKeyAad(ref: SubjectRef, memoryId: string, keyId: string, subjectKeyId: string): Buffer {
  return associatedData('memledger/memory-key/v1', { tenant: ref.tenant, subject: ref.subject, memoryId, keyId, subjectKeyId });
}

export function wrapSubjectSecret(master: MasterKey, ref: SubjectRef, keyId: string, secret: Buffer): Buffer {
  return wrapKey(master.bytes, secret, subjectSecretAad(ref, keyId));
}

export function unwrapSubjectSecret(master: MasterKey, ref: SubjectRef, keyId: string, wrapped: Buffer): Buffer {
  return unwrapKey(master.bytes, wrapped, subjectSecretAad(ref, keyId), keyId);
}

export interface MemoryKeyPlace {
  readonly ref: SubjectRef;
  readonly memoryId: string;
  readonly keyId: string;
  readonly subjectKeyId: string;
}

export function wrapMemoryKey(master: MasterKey, secret: Buffer, place: MemoryKeyPlace, key: Buffer): Buffer {
  return wrapKey(memoryWrappingKey(secret, master), key, memoryKeyAad(place.ref, place.memoryId, place.keyId, place.subjectKeyId));
}

export function unwrapMemoryKey(master: MasterKey, secret: Buffer, place: MemoryKeyPlace, wrapped: Buffer): Buffer {
  return memoryKeyOpener(master, secret)(place, wrapped);
}

export type MemoryKeyOpener = (place: MemoryKeyPlace, wrapped: Buffer) => Buffer;

/** Unwraps many memory keys of one subject under one master key: the wrapping key is derived once, not per memory. */
export function memoryKeyOpener(master: MasterKey, secret: Buffer): MemoryKeyOpener {
  const wrapping = memoryWrappingKey(secret, master);
  return (place, wrapped) =>
    unwrapKey(wrapping, wrapped, memoryKeyAad(place.ref, place.memoryId, place.keyId, place.subjectKeyId), place.keyId);
}

function artifactWrappingKey(secret: Buffer, master: MasterKey): Buffer {
  return deriveFromSecret(secret, master.bytes, master.id, 'memledger/v1/artifact-key-wrap');
}

/** The HMAC key of an artifact's output hash: destroyed with the artifact's key, so the hash cannot be tested against guesses afterwards. */
export function artifactHashKeyOf(artifactKey: Buffer): Buffer {
  return derive(artifactKey, Buffer.alloc(0), 'memledger/v1/artifact-hash-key');
}

export interface ArtifactKeyPlace {
  readonly ref: SubjectRef;
  readonly artifactId: string;
  readonly keyId: string;
  readonly subjectKeyId: string;
}

function artifactKeyAad(place: ArtifactKeyPlace): Buffer {
  return associatedData('memledger/artifact-key/v1', {
    tenant: place.ref.tenant,
    subject: place.ref.subject,
    artifactId: place.artifactId,
    keyId: place.keyId,
    subjectKeyId: place.subjectKeyId,
  });
}

export function wrapArtifactKey(master: MasterKey, secret: Buffer, place: ArtifactKeyPlace, key: Buffer): Buffer {
  return wrapKey(artifactWrappingKey(secret, master), key, artifactKeyAad(place));
}

export function unwrapArtifactKey(master: MasterKey, secret: Buffer, place: ArtifactKeyPlace, wrapped: Buffer): Buffer {
  return unwrapKey(artifactWrappingKey(secret, master), wrapped, artifactKeyAad(place), place.keyId);
}
