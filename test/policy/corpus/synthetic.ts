// Builders for the synthetic secrets of the policy corpora.
//
// TEST FIXTURES, NOT CREDENTIALS. Every token here is made up: format-valid
// (right prefix, length and alphabet, so the detectors must catch it) and
// obviously synthetic (most carry SYNTHETIC, FAKE or DEADBEEF; the rest are
// filled by the fixed generator below from a seed). None was ever issued by
// a provider.
//
// Why the odd spelling: the repository must not trip secret scanners (GitHub
// push protection, gitleaks, trufflehog). So no token appears whole in the
// source: prefixes and bodies are written apart and joined at load time
// (`j('gh' + 'p_', …)`), JWTs are encoded from JSON at load time, and PEM
// armour lines are assembled by `pem()`. A scanner reading the files sees
// fragments, never a token.

export const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const B64URL = `${ALNUM}-_`;
export const B64 = `${ALNUM}+/`;
export const HEX = '0123456789abcdef';
export const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
export const UPPER_ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const DIGITS = '0123456789';

/** Joins fragments: keeps whole tokens out of the committed text. */
export const j = (...parts: string[]): string => parts.join('');

/**
 * `marker` then characters of `alphabet` from a fixed linear congruential
 * generator seeded by `seed`, up to `length`: deterministic, high-entropy
 * filler. The marker must use the alphabet (the caller's business).
 */
export function synth(length: number, alphabet: string, seed: number, marker = ''): string {
  let state = (seed * 2654435761 + 12345) >>> 0;
  let out = marker;
  while (out.length < length) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out += alphabet[(state >>> 16) % alphabet.length];
  }
  return out.slice(0, length);
}

const base64url = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

/** A structurally valid JWT: base64url JSON header and payload, and a synthetic signature. */
export function jwt(header: object, payload: object, signature: string): string {
  return [base64url(JSON.stringify(header)), base64url(JSON.stringify(payload)), signature].join('.');
}

/** A PEM block with its armour assembled here (label e.g. "RSA PRIVATE KEY"). */
export function pem(label: string, body: string): string {
  const dashes = '-'.repeat(5);
  const lines = body.match(/.{1,64}/g) ?? [];
  return [`${dashes}${'BEGIN'} ${label}${dashes}`, ...lines, `${dashes}${'END'} ${label}${dashes}`].join('\n');
}
