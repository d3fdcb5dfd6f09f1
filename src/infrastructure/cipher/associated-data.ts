// Associated data for AES-GCM: canonical JSON (RFC 8785) of what a ciphertext
// belongs to, so a ciphertext moved to another tenant, subject, memory, field
// or key row fails authentication instead of decrypting in the wrong place.
import canonicalize from 'canonicalize';

export function associatedData(label: string, fields: Readonly<Record<string, string | null>>): Buffer {
  const text = canonicalize({ ...fields, label });
  if (text === undefined) throw new Error(`associated data for ${label} is not serialisable`);
  return Buffer.from(text, 'utf8');
}
