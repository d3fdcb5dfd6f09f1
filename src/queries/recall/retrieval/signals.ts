// Where signals beyond the text plug into recall with a query: an embedding
// port (the query's vector, each memory's opened vector) and write-time
// query expansion (each memory's opened anticipated queries). Absent, recall
// ranks by key and lexical signals alone. Whatever a port returns joins
// the index built in memory for one subject revision, never anything stored.
import type { ReadableMemory } from '../readable.js';

export interface DocumentExtras {
  /** Opened (unsealed) questions under which the memory should be found. */
  readonly anticipatedQueries?: readonly string[];
  /** The memory's opened embedding; every document of a subject has the same dimensions. */
  readonly vector?: readonly number[];
}

export interface RetrievalSignals {
  /** Changes when what documentExtras returns can change for the same version (e.g. the embedding model): part of the index's cache key. */
  readonly fingerprint?: string;
  /** The query's embedding, or undefined (no endpoint, or it failed: lexical only). */
  queryVector?(query: string): Promise<readonly number[] | undefined>;
  /** From the memory's opened fields (a sealed anticipatedQueries field is opened with value and content). */
  documentExtras?(memory: ReadableMemory): DocumentExtras | undefined;
}
