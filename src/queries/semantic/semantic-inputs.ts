// What the semantic signal needs, for one question about one subject: the
// question's vector and the subject's memory vectors of the configured
// model, opened in memory with each memory's key. No embedder, or the
// embedder failed on the question: neither (retrieval is lexical only, and
// says so). A vector of another model, of another length than the
// question's, or whose key is gone is left out (that memory has no
// semantic match until a re-index gives it one).
import type { EmbeddingFailureCode } from '../../infrastructure/embeddings/port.js';
import type { SubjectRef } from '../../infrastructure/key-store/port.js';
import { openVector } from '../../infrastructure/vectors/vector-sealing.js';
import { memoryKeysOf } from '../opened/memory-fields.js';
import type { ReadSide } from '../read-side.js';

export type SemanticInputs =
  | { readonly status: 'off' }
  | { readonly status: 'failed'; readonly failure: { readonly code: EmbeddingFailureCode; readonly message: string } }
  | {
      readonly status: 'ready';
      readonly model: string;
      readonly queryVector: readonly number[];
      /** memory id -> its vector, all of the question's length. */
      readonly vectors: ReadonlyMap<string, readonly number[]>;
    };

export async function semanticInputs(
  read: Pick<ReadSide, 'keyStore' | 'retrieval'>,
  ref: SubjectRef,
  query: string,
  memoryIds: readonly string[],
): Promise<SemanticInputs> {
  const embedder = read.retrieval?.embedder;
  if (!read.retrieval || !embedder) return { status: 'off' };
  const answer = await embedder.embed([query]);
  if (!answer.ok) return { status: 'failed', failure: { code: answer.failure.code, message: answer.failure.message } };
  const queryVector = answer.vectors[0]!;
  const vectors = new Map<string, readonly number[]>();
  if (memoryIds.length === 0) return { status: 'ready', model: embedder.model, queryVector, vectors };
  const stored = (await read.retrieval.vectors.read(ref, embedder.model, memoryIds)).filter((v) => v.dimensions === queryVector.length);
  const keys = await memoryKeysOf(
    read.keyStore,
    ref,
    stored.map((s) => s.memoryId),
  );
  for (const s of stored) {
    const lookup = keys.get(s.memoryId);
    if (lookup?.status !== 'found' || lookup.key.keyId !== s.vector.keyId) continue;
    vectors.set(s.memoryId, openVector(s.vector, lookup.key.key, { ...ref, memoryId: s.memoryId }, s.model));
  }
  return { status: 'ready', model: embedder.model, queryVector, vectors };
}
