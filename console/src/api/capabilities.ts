// What this server's API offers beyond what every version has, read from its
// own /openapi.json (public): today, whether recall takes a question
// (`query`, issue 16). The console sends a parameter only where the document
// lists it, as the API refuses unknown ones.
export interface Capabilities {
  readonly recallQuery: boolean;
}

interface OpenApiDocument {
  readonly paths?: Record<
    string,
    { readonly get?: { readonly parameters?: ReadonlyArray<{ readonly name?: string; readonly in?: string }> } }
  >;
}

export const RECALL_PATH = '/v1/subjects/{subject}/recall';

export function capabilitiesOf(document: OpenApiDocument): Capabilities {
  const parameters = document.paths?.[RECALL_PATH]?.get?.parameters ?? [];
  return { recallQuery: parameters.some((p) => p.name === 'query' && p.in === 'query') };
}

let loaded: Promise<Capabilities> | undefined;

/** Read once per page; a document that cannot be read means nothing optional is used. */
export function capabilities(): Promise<Capabilities> {
  loaded ??= fetch('/openapi.json', { headers: { accept: 'application/json' }, credentials: 'omit' })
    .then(async (r) => (r.ok ? capabilitiesOf((await r.json()) as OpenApiDocument) : { recallQuery: false }))
    .catch(() => ({ recallQuery: false }));
  return loaded;
}
