// Unkeyed SHA-256 is for public structure only (manifests, input roots);
// hashes of personal plaintext are keyed and computed outside the domain.
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** sha256 over the RFC 8785 canonical form of a JSON value. */
export function canonicalSha256(value: unknown): string {
  return sha256Hex(canonicalJson(value));
}
