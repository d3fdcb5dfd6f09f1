// Keyed hashes for fences and dedup: HMAC-SHA256 under a per-subject key, so a
// low-entropy value (a phone number, a yes/no) cannot be recovered by hashing
// guesses, and equal values of two subjects hash differently.
import { createHmac } from 'node:crypto';
import { requireKey } from './key-material.js';

/** Lowercase hex HMAC-SHA256 of the UTF-8 canonical string. */
export function keyedHash(hashKey: Buffer, canonical: string): string {
  return createHmac('sha256', requireKey(hashKey, 'hashKey')).update(canonical, 'utf8').digest('hex');
}
