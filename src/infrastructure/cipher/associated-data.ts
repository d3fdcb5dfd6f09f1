// Associated data for AES-GCM: canonical JSON (RFC 8785) of what a ciphertext
// belongs to, so a ciphertext moved to another tenant, subject, memory, field
// or key row fails authentication instead of decrypting in the wrong place.
import canonicalize from 'canonicalize';

export function associatedData(label: string, fields: Readonly<Record<string, string | null>>): Buffer {
  const object = { ...fields, label };
  return Buffer.from(flatCanonicalJson(object) ?? canonicalJson(object, label), 'utf8');
}

/**
 * RFC 8785 of a flat object of well-formed strings and nulls, written
 * directly: members sorted by key in UTF-16 code units, keys and values as
 * JSON.stringify writes them. It runs for every sealed field a read opens,
 * where the general serializer was a visible share of recall's time; a
 * property test holds it equal to `canonicalize`. Undefined when the object
 * is not of that shape (the general serializer then decides).
 */
/** In a `u` regex a surrogate pair is one code point, so this finds only lone surrogates (not well-formed). */
const LONE_SURROGATE = /\p{Surrogate}/u;
export const wellFormed = (text: string): boolean => !LONE_SURROGATE.test(text);

function flatCanonicalJson(object: Readonly<Record<string, string | null>>): string | undefined {
  const entries = Object.entries(object);
  for (const [key, value] of entries) {
    if (!wellFormed(key) || (value !== null && (typeof value !== 'string' || !wellFormed(value)))) return undefined;
  }
  entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
}

function canonicalJson(object: unknown, label: string): string {
  const text = canonicalize(object);
  if (text === undefined) throw new Error(`associated data for ${label} is not serialisable`);
  return text;
}
