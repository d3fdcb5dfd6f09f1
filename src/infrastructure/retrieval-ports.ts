// What retrieval computes with, for the write side (vectors on write) and
// the read side (the semantic signal) alike.
import type { Embedder } from './embeddings/port.js';
import type { QueryExpander } from './expansion/port.js';
import type { VectorStore } from './vectors/port.js';

/** The model ports of retrieval (issue 16) and where vectors are kept. */
export interface RetrievalPorts {
  /** Unset: no vectors are computed. */
  readonly embedder?: Embedder;
  /** Unset: an entry keeps the anticipated queries its writer gave, or none. */
  readonly expander?: QueryExpander;
  readonly vectors: VectorStore;
}
