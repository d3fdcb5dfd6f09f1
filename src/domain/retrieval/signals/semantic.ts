// The semantic signal: cosine similarity between the query's embedding
// and each document's (when the caller has both; the embedding port comes
// from outside the domain). Documents without a vector do not take part.
import { InvalidInput } from '../../validation/invalid-input.js';
import type { RetrievalIndex } from '../corpus/retrieval-index.js';
import type { RetrievalPolicy } from '../ranking/policy.js';
import type { SignalMatch } from './signal.js';

/** 0 for a zero (or underflowing) vector: such a vector points nowhere. */
export function cosine(a: readonly number[], normA: number, b: readonly number[], normB: number): number {
  const norms = normA * normB;
  if (!(norms > 0)) return 0;
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  const c = dot / norms;
  return Number.isFinite(c) ? Math.max(-1, Math.min(1, c)) : 0;
}

export const isFiniteVector = (vector: readonly number[]): boolean => vector.every((x) => Number.isFinite(x));

export function semanticMatches(
  index: RetrievalIndex,
  queryVector: readonly number[] | undefined,
  accepted: readonly string[],
  policy: RetrievalPolicy,
): SignalMatch[] {
  if (queryVector === undefined || index.dimensions === undefined) return [];
  if (queryVector.length !== index.dimensions) {
    throw new InvalidInput('queryVector', `must have ${index.dimensions} dimensions, as the documents' vectors do`);
  }
  if (!isFiniteVector(queryVector)) throw new InvalidInput('queryVector', 'must hold finite numbers');
  const queryNorm = Math.hypot(...queryVector);
  const matches: SignalMatch[] = [];
  for (const id of accepted) {
    const doc = index.documents.get(id)!;
    if (!doc.document.vector) continue;
    const c = cosine(queryVector, queryNorm, doc.document.vector, doc.vectorNorm);
    if (c < policy.semanticFloor) continue;
    const strength = Math.min(1, c);
    matches.push({ id, score: c, strength, reason: (rank) => ({ code: 'semantic_match', contribution: 0, rank, cosine: c }) });
  }
  return matches;
}
