// Sealing personal content: AES-256-GCM with a fresh random nonce, the
// envelope's alg and keyId plus the value's place (tenant, subject, memory,
// field) bound as associated data. Plaintext lives only in memory.
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { associatedData, wellFormed } from './associated-data.js';
import { SealBroken, SealedMalformed } from './errors.js';
import { requireKey } from './key-material.js';
import { freshRandomBytes } from './random-pool.js';
import type { Sealed } from './sealed.js';

/** Where a sealed value belongs; opening under any other context fails. */
export interface SealContext {
  readonly tenant: string;
  readonly subject: string;
  /** The memory (or other record, e.g. an artifact id) the value belongs to. */
  readonly memoryId?: string;
  /** Which field of it ('content', 'value', 'summary', …), so fields cannot be swapped. */
  readonly field?: string;
}

const ALG = 'A256GCM';
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
/** The last group of four: whole, or padded. */
const LAST_GROUP = /^(?:[A-Za-z0-9+/]{4}|[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)$/;

const LABEL = 'memledger/sealed/v1';

/**
 * associatedData(LABEL, { alg, keyId, tenant, subject, memoryId, field }),
 * written from its template when every value is well-formed (the members in
 * RFC 8785's order: alg, field, keyId, label, memoryId, subject, tenant): a
 * recall with a question seals its question's shares, 21 at topK 20, and the
 * general writer was 40% of each seal. The property test of
 * test/key-store/associated-data.property.test.ts holds the two equal.
 */
export function aadFor(keyId: string, context: SealContext): Buffer {
  const memoryId = context.memoryId ?? null;
  const field = context.field ?? null;
  const { tenant, subject } = context;
  if (
    typeof keyId !== 'string' ||
    typeof tenant !== 'string' ||
    typeof subject !== 'string' ||
    !wellFormed(keyId) ||
    !wellFormed(tenant) ||
    !wellFormed(subject) ||
    (memoryId !== null && (typeof memoryId !== 'string' || !wellFormed(memoryId))) ||
    (field !== null && (typeof field !== 'string' || !wellFormed(field)))
  )
    return associatedData(LABEL, { alg: ALG, keyId, tenant, subject, memoryId, field });
  const json = JSON.stringify;
  return Buffer.from(
    `{"alg":"${ALG}","field":${json(field)},"keyId":${json(keyId)},"label":"${LABEL}","memoryId":${json(memoryId)},"subject":${json(subject)},"tenant":${json(tenant)}}`,
    'utf8',
  );
}

/** Seals a UTF-8 string (callers pass JSON text) under a 32-byte key named keyId. */
export function seal(plaintext: string, key: Buffer, keyId: string, context: SealContext): Sealed {
  const nonce = freshRandomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', requireKey(key, 'key'), nonce, { authTagLength: TAG_BYTES });
  cipher.setAAD(aadFor(keyId, context));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return { alg: ALG, keyId, iv: nonce.toString('base64'), ct: body.toString('base64') };
}

/**
 * Padded base64 of the standard alphabet, nothing else (no whitespace, no
 * URL-safe letters, no missing padding), checked without a regular
 * expression over the whole value (a summary's output is long and opened on
 * every recall): Node's decoder skips what it does not know, so a value is
 * base64 exactly when the decoded bytes encode back to it — but for the
 * unused low bits of a padded last group, which the decoder ignores and
 * the check never refused either.
 */
function decodeBase64(value: unknown, field: string): Buffer {
  if (typeof value !== 'string' || value.length % 4 !== 0) throw new SealedMalformed(field, 'is not base64');
  const bytes = Buffer.from(value, 'base64');
  const again = bytes.toString('base64');
  if (again === value) return bytes;
  const whole = value.length - 4;
  if (again.length !== value.length || again.slice(0, whole) !== value.slice(0, whole) || !LAST_GROUP.test(value.slice(whole)))
    throw new SealedMalformed(field, 'is not base64');
  return bytes;
}

/**
 * Opens an envelope. Throws SealedMalformed when it is not an A256GCM envelope
 * and SealBroken when it fails authentication (tampered, wrong key, wrong context).
 */
export function open(sealed: Sealed, key: Buffer, context: SealContext): string {
  const envelope = sealed as unknown as Record<string, unknown> | null;
  if (typeof envelope !== 'object' || envelope === null) throw new SealedMalformed('sealed', 'is not an object');
  if (envelope.alg !== ALG) throw new SealedMalformed('alg', `must be ${ALG}`);
  if (typeof envelope.keyId !== 'string' || envelope.keyId === '') throw new SealedMalformed('keyId', 'must be a non-empty string');
  const nonce = decodeBase64(envelope.iv, 'iv');
  if (nonce.length !== NONCE_BYTES) throw new SealedMalformed('iv', `must be ${NONCE_BYTES} bytes`);
  const body = decodeBase64(envelope.ct, 'ct');
  if (body.length < TAG_BYTES) throw new SealedMalformed('ct', `is shorter than the ${TAG_BYTES}-byte tag`);

  const decipher = createDecipheriv('aes-256-gcm', requireKey(key, 'key'), nonce, { authTagLength: TAG_BYTES });
  decipher.setAAD(aadFor(envelope.keyId, context));
  decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SealBroken(envelope.keyId);
  }
}
