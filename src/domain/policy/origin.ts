// Whether an entry's content came from outside (web pages, documents, tool
// output marked external), read from its source refs, so that it is known
// wherever the entry goes (review, recall) without another field:
//   - a ref whose scheme is one of the policy's external schemes (by
//     default http, https, web, doc, document, file, external), or
//   - a ref whose scheme ends in `+external` — the way to mark tool output
//     as external while keeping the tool's own scheme, e.g.
//     `tool+external://browser/call-7`.
// One external ref makes the entry external: a statement is as trusted as
// its least trusted ground.

export type Origin = 'internal' | 'external';

export const DEFAULT_EXTERNAL_SCHEMES = ['http', 'https', 'web', 'doc', 'document', 'file', 'external'] as const;
export const EXTERNAL_SCHEME_SUFFIX = '+external';

/** The scheme of a ref (`https` of `https://…`), lower case, or undefined when it has none. */
export function schemeOf(ref: string): string | undefined {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(ref);
  return m?.[1]?.toLowerCase();
}

export function isExternalRef(ref: string, externalSchemes: readonly string[]): boolean {
  const scheme = schemeOf(ref);
  return scheme !== undefined && (scheme.endsWith(EXTERNAL_SCHEME_SUFFIX) || externalSchemes.includes(scheme));
}

export function originOf(refs: readonly string[], externalSchemes: readonly string[]): Origin {
  return refs.some((ref) => isExternalRef(ref, externalSchemes)) ? 'external' : 'internal';
}
