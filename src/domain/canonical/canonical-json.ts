// RFC 8785 (JCS) canonical JSON: the one byte form that hashes, fences and
// equality checks agree on.
import canonicalize from 'canonicalize';

/** The RFC 8785 canonical form of a JSON value. Throws on values JSON cannot carry (undefined, NaN, lone surrogates). */
export function canonicalJson(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new TypeError('value has no JSON form');
  return text;
}
