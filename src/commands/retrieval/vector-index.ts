// Memories' embedding vectors, kept sealed beside the ledger (write first,
// embed after): a write embeds its new memory once the event is appended,
// and a failure there is recorded for a retry, never a failed write.
// reindexVectors is the retry and the re-index: it embeds every active
// memory of a subject that has no vector of the configured model (new
// model, failed before, or written while no embedder was configured),
// reading the fields from the log — so it works without projections, and
// an erased memory (its key destroyed) is never embedded again.
import { embeddingText, type EmbeddedFields } from '../../domain/retrieval/corpus/embedding-text.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { MAX_EMBEDDING_BATCH, type Embedder } from '../../infrastructure/embeddings/port.js';
import type { SubjectRef } from '../../infrastructure/key-store/port.js';
import { sealVector } from '../../infrastructure/vectors/vector-sealing.js';
import type { StoredVector } from '../../infrastructure/vectors/port.js';
import { openEntries } from '../../reads/opened/opened-entries.js';
import type { RetrievalPorts } from '../../infrastructure/retrieval-ports.js';
import type { Ledger } from '../ledger.js';

export interface MemoryToEmbed {
  readonly memoryId: string;
  readonly fields: EmbeddedFields;
}

export interface VectorIndexing {
  /** Memories whose vector of the model is now stored. */
  readonly embedded: number;
  /** Memories whose embedding failed (recorded for a retry). */
  readonly failed: number;
  /** Memories whose key is gone (erased meanwhile): nothing stored. */
  readonly skipped: number;
  readonly failure?: { readonly code: string; readonly message: string };
}

const NOTHING: VectorIndexing = { embedded: 0, failed: 0, skipped: 0 };

type Embedding = Pick<Ledger, 'keyStore' | 'clock'> & { readonly retrieval: RetrievalPorts & { readonly embedder: Embedder } };

const embeddingOn = (ledger: Ledger): ledger is Ledger & Embedding => ledger.retrieval?.embedder !== undefined;

/** Embeds, seals and stores; never throws for the endpoint's sake (a failure is recorded and counted). */
export async function embedMemories(ledger: Ledger, ref: SubjectRef, memories: readonly MemoryToEmbed[]): Promise<VectorIndexing> {
  if (!embeddingOn(ledger) || memories.length === 0) return NOTHING;
  let total = NOTHING;
  for (let i = 0; i < memories.length; i += MAX_EMBEDDING_BATCH) {
    const batch = await embedBatch(ledger, ref, memories.slice(i, i + MAX_EMBEDDING_BATCH));
    total = {
      embedded: total.embedded + batch.embedded,
      failed: total.failed + batch.failed,
      skipped: total.skipped + batch.skipped,
      ...((batch.failure ?? total.failure) ? { failure: batch.failure ?? total.failure! } : {}),
    };
  }
  return total;
}

async function embedBatch(ledger: Embedding, ref: SubjectRef, batch: readonly MemoryToEmbed[]): Promise<VectorIndexing> {
  const { embedder, vectors } = ledger.retrieval;
  const ids = batch.map((m) => m.memoryId);
  const answer = await embedder
    .embed(batch.map((m) => embeddingText(m.fields)))
    .catch((error: unknown) => ({ ok: false as const, failure: { code: 'unreachable', message: (error as Error).message } }));
  if (!answer.ok) {
    const failure = { code: answer.failure.code, message: answer.failure.message };
    await vectors.recordFailure(ref, ids, embedder.model, failure, ledger.clock());
    return { embedded: 0, failed: batch.length, skipped: 0, failure };
  }
  const keys = await ledger.keyStore.memoryKeys(ref, ids);
  const stored: StoredVector[] = [];
  batch.forEach((m, i) => {
    const lookup = keys.get(m.memoryId);
    if (lookup?.status !== 'found') return;
    const vector = answer.vectors[i]!;
    const place = { ...ref, memoryId: m.memoryId };
    stored.push({
      memoryId: m.memoryId,
      model: embedder.model,
      dimensions: vector.length,
      vector: sealVector(vector, lookup.key.key, lookup.key.keyId, place, embedder.model),
    });
  });
  await vectors.put(ref, stored, ledger.clock());
  // An erasure that destroyed a key while this batch was embedding deletes the rows before it; take out what came after.
  const after = await ledger.keyStore.memoryKeys(ref, ids);
  const gone = stored.filter((s) => after.get(s.memoryId)?.status !== 'found').map((s) => s.memoryId);
  if (gone.length > 0) await vectors.forget(ref, gone);
  return { embedded: stored.length - gone.length, failed: 0, skipped: batch.length - stored.length + gone.length };
}

/** Embeds every active memory of the subject that has no vector of the configured model. */
export async function reindexVectors(ledger: Ledger, ref: SubjectRef): Promise<VectorIndexing & { readonly upToDate: number }> {
  if (!embeddingOn(ledger)) return { ...NOTHING, upToDate: 0 };
  const { embedder, vectors } = ledger.retrieval;
  const stream = subjectStreamName(ref.tenant, ref.subject);
  const loaded = await ledger.subjects.load(stream);
  const states = await vectors.states(ref, embedder.model);
  const active = [...loaded.state.entries.values()].filter((e) => e.status === 'active');
  const current = (id: string) => {
    const state = states.get(id);
    return state?.status === 'embedded' && (embedder.dimensions === undefined || state.dimensions === embedder.dimensions);
  };
  const due = active.filter((e) => !current(e.memoryId));
  if (due.length === 0) return { ...NOTHING, upToDate: active.length };
  const open = await openEntries(ledger.eventStore, ledger.keyStore, ref, stream, loaded.revision, new Set(due.map((e) => e.memoryId)));
  const memories = due.flatMap((e) => {
    const opened = open(e);
    return opened ? [{ memoryId: e.memoryId, fields: { key: e.key, polarity: e.polarity, ...opened } }] : [];
  });
  const result = await embedMemories(ledger, ref, memories);
  return { ...result, skipped: result.skipped + due.length - memories.length, upToDate: active.length - due.length };
}
