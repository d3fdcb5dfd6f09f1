// Private key material: PEM and OpenSSH armour (the BEGIN line alone is
// enough: a truncated key is still a leaked key) and PuTTY key files. Public
// keys and certificates are not secrets; the entropy check skips their blocks.
import type { KindPattern } from '../pattern-scan.js';

export const PRIVATE_KEY_PATTERNS: readonly KindPattern[] = [
  {
    kind: 'secret:private_key',
    re: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----(?:[\s\S]*?-----END \1-----)?/dg,
  },
  { kind: 'secret:private_key', re: /PuTTY-User-Key-File-\d+:[^\n]*/dg },
];

/** Armoured blocks that are public by design (public keys, certificates), which look like secrets to the entropy check. */
export const PUBLIC_BLOCK =
  /-----BEGIN ((?:[A-Z0-9]+ )*(?:PUBLIC KEY|CERTIFICATE|CERTIFICATE REQUEST|X509 CRL)(?: BLOCK)?)-----[\s\S]*?-----END \1-----/g;
