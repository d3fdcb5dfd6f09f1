// The text of an API key: `mlk_<keyId>_<secret>`. The key id is public (it
// names the row, shows in `keys list` and in logs); the secret is 32 random
// bytes. Only sha256 of the whole text is stored.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'mlk';
const KEY_TEXT = /^mlk_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewKeyToken {
  readonly keyId: string;
  readonly token: string;
}

export function newKeyToken(): NewKeyToken {
  // 10 random bytes as 16 base32-ish lowercase characters: short, copyable, no separator clash.
  const keyId = toBase32(randomBytes(10));
  const secret = randomBytes(32).toString('base64url');
  return { keyId, token: `${PREFIX}_${keyId}_${secret}` };
}

/** The key id of a well-formed key text; undefined otherwise. */
export function keyIdOf(token: string): string | undefined {
  return KEY_TEXT.exec(token)?.[1];
}

export function digestOf(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Constant-time comparison of a presented key with a stored digest. */
export function digestMatches(token: string, stored: Buffer): boolean {
  const presented = digestOf(token);
  return stored.length === presented.length && timingSafeEqual(stored, presented);
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

function toBase32(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  return out;
}
