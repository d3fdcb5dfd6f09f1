// The embedding port: texts in, one vector each out. Unset (no endpoint
// configured), there is no embedder and retrieval is lexical only; the
// adapter is an OpenAI-compatible /v1/embeddings endpoint. Whatever an
// endpoint gets wrong ends as a typed EmbeddingFailure, never as a vector.
import { ENDPOINT_FAILURE_CODES, ModelFailure } from '../model-endpoint/post-json.js';

export const EMBEDDING_FAILURE_CODES = [...ENDPOINT_FAILURE_CODES, 'wrong_count', 'wrong_dimensions'] as const;
export type EmbeddingFailureCode = (typeof EMBEDDING_FAILURE_CODES)[number];

/** Why no vectors came back (stored in clear for a retry: it names statuses and sizes, never content). */
export class EmbeddingFailure extends ModelFailure<EmbeddingFailureCode> {
  override readonly name = 'EmbeddingFailure';
}

export type Embedding =
  { readonly ok: true; readonly vectors: readonly (readonly number[])[] } | { readonly ok: false; readonly failure: EmbeddingFailure };

export interface Embedder {
  /** Recorded with every vector: a vector of another model is never compared with this one's. */
  readonly model: string;
  /** The length every vector must have, when configured; otherwise the endpoint's answers must agree among themselves. */
  readonly dimensions?: number;
  /** At most MAX_EMBEDDING_BATCH texts per call. */
  embed(texts: readonly string[]): Promise<Embedding>;
}

export const MAX_EMBEDDING_BATCH = 64;
