// Key wrapping with AES-256-GCM (not RFC 3394): a random nonce per wrap and
// associated data naming the row, so a wrapped key copied into another row
// does not unwrap. Layout of the blob: nonce(12) || ciphertext || tag(16).
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { KeyUnwrapFailed } from './errors.js';
import { requireKey } from './key-material.js';

const NONCE_BYTES = 12;
const TAG_BYTES = 16;

export function wrapKey(wrappingKey: Buffer, key: Buffer, aad: Buffer): Buffer {
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', requireKey(wrappingKey, 'wrappingKey'), nonce);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(key), cipher.final()]);
  return Buffer.concat([nonce, body, cipher.getAuthTag()]);
}

/** `keyId` only names the key in the error. */
export function unwrapKey(wrappingKey: Buffer, blob: Buffer, aad: Buffer, keyId: string): Buffer {
  if (blob.length < NONCE_BYTES + TAG_BYTES) throw new KeyUnwrapFailed(keyId);
  const nonce = blob.subarray(0, NONCE_BYTES);
  const body = blob.subarray(NONCE_BYTES, blob.length - TAG_BYTES);
  const tag = blob.subarray(blob.length - TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', requireKey(wrappingKey, 'wrappingKey'), nonce);
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(body), decipher.final()]);
  } catch {
    throw new KeyUnwrapFailed(keyId);
  }
}
