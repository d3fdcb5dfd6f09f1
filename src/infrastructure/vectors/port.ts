// Where memories' sealed embedding vectors live: one row per memory and
// model. A vector of another model than the configured one is never read
// as this one's; storing a memory's vector of the current model removes its
// vectors of other models (the model changed: re-indexed).
import type { Sealed } from '../cipher/sealed.js';
import type { SubjectRef } from '../key-store/port.js';

export interface StoredVector {
  readonly memoryId: string;
  readonly model: string;
  readonly dimensions: number;
  readonly vector: Sealed;
}

export interface VectorFailure {
  readonly code: string;
  readonly message: string;
}

export type VectorState =
  { readonly status: 'embedded'; readonly dimensions: number } | { readonly status: 'failed'; readonly attempts: number };

export interface VectorStore {
  /** Stores (or replaces) each memory's vector of its model, and deletes the memory's vectors of other models. */
  put(ref: SubjectRef, vectors: readonly StoredVector[], at: Date): Promise<void>;
  /** Records that embedding these memories with `model` failed (a retry picks them up); an embedded vector is left alone. */
  recordFailure(ref: SubjectRef, memoryIds: readonly string[], model: string, failure: VectorFailure, at: Date): Promise<void>;
  /** The vectors of `model` for these memories (all of the subject's when absent). */
  read(ref: SubjectRef, model: string, memoryIds?: readonly string[]): Promise<StoredVector[]>;
  /** Each listed memory's row for `model`, if any. */
  states(ref: SubjectRef, model: string): Promise<Map<string, VectorState>>;
  /** Deletes every row of these memories (of the whole subject when absent), any model; the number deleted. */
  forget(ref: SubjectRef, memoryIds?: readonly string[]): Promise<number>;
  /** Rows of these memories, any model, with or without a vector (the erasure check). */
  count(ref: SubjectRef, memoryIds?: readonly string[]): Promise<number>;
  close(): Promise<void>;
}
