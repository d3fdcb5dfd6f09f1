// 256-bit keys: the only size this module deals in (AES-256, HMAC-SHA256).
import { randomBytes } from 'node:crypto';
import { KeyLengthInvalid } from './errors.js';

export const KEY_BYTES = 32;

export function newKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function requireKey(key: Buffer, field: string): Buffer {
  if (!Buffer.isBuffer(key) || key.length !== KEY_BYTES) {
    throw new KeyLengthInvalid(field, KEY_BYTES, Buffer.isBuffer(key) ? key.length : 0);
  }
  return key;
}
