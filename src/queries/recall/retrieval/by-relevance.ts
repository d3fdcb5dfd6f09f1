// Recall with a query (issue 16): the documents recall read (hard filters
// already applied: only what this reader may see reaches an index) go into
// the subject's cached retrieval index; retrieve() ranks them; each hit
// becomes the recall item it stands for, in rank order, with its
// explanation. A hit on a side of an open conflict is always the whole
// conflict item (withheld sides included); open conflicts on a key the
// query reached show even when nothing cleared minScore. With an embedder
// (read.retrieval) the query's and the memories' vectors add the semantic
// signal; without one, or when it fails on the query, ranking is lexical
// and the report says which.
import {
  buildRetrievalIndex,
  DEFAULT_RETRIEVAL_POLICY,
  withLifecycleHalfLives,
  keyMatcher,
  retrieve,
  retrievalIndexSteps,
  type RetrievalAnswer,
  type RetrievalDocument,
  type RetrievalIndex,
  type RetrievalQuery,
  updateRetrievalIndex,
} from '../../../domain/retrieval/index.js';
import type { EmbeddingFailureCode } from '../../../infrastructure/embeddings/port.js';
import type { SubjectRef } from '../../../infrastructure/key-store/port.js';
import type { ReadSide } from '../../read-side.js';
import { LifecyclePolicyReader } from '../../../reads/lifecycle/lifecycle-policy-reader.js';
import { semanticInputs } from '../../semantic/semantic-inputs.js';
import { memoryItem, memoryLabels, type ConflictItem, type ItemMemo, type RecallItem } from '../items.js';
import type { ReadableMemory } from '../readable.js';
import { explainedItem } from '../answer-json.js';
import { recallDocuments, type DocumentMemo, type SummaryToIndex } from './documents.js';

export interface RelevanceInput {
  readonly ref: SubjectRef;
  /** Null: the projection has no event of the subject (nothing to cache by). */
  readonly revision: number | null;
  readonly now: string;
  readonly readable: ReadonlyMap<string, ReadableMemory>;
  /** The reader's open conflicts, as recall shows them. */
  readonly conflicts: ReadonlyArray<{ readonly item: ConflictItem; readonly members: readonly string[] }>;
  readonly summary: SummaryToIndex | undefined;
  readonly memo: ItemMemo;
  /** The subject corpus's documents, remembered across recalls (absent: made for this recall only). */
  readonly documents?: DocumentMemo;
}

/** What the answer says about the ranking (the query itself is not echoed). */
export interface RetrievalReport {
  readonly topK: number;
  readonly key: string | null;
  readonly kind: string | null;
  readonly minScore: number | null;
  readonly terms: readonly string[];
  /** Documents in the index: memories read, plus the summary's claims and open items when it is current. */
  readonly indexed: number;
  readonly considered: number;
  readonly signals: RetrievalAnswer['signals'];
  /** The semantic signal: off (no embedder), ready (the query and the memories with a vector of `model`), or failed at query time (lexical only). */
  readonly semantic:
    | { readonly status: 'off' }
    | { readonly status: 'ready'; readonly model: string; readonly vectors: number }
    | { readonly status: 'failed'; readonly code: EmbeddingFailureCode };
  readonly hits: number;
  readonly belowMinScore: number;
}

/** Documents indexed between two turns of the event loop: a cold subject of thousands builds for seconds, other requests answered meanwhile. */
const BUILD_CHUNK = 250;

async function buildInTurns(documents: readonly RetrievalDocument[]): Promise<RetrievalIndex> {
  const steps = retrievalIndexSteps(documents, BUILD_CHUNK);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A memory's item, made once per readable memory: a warm corpus keeps its
 * readable memories, so a question's hits are the same item objects each
 * time, whose JSON answer-json.ts keeps.
 */
const memoryItems = new WeakMap<ReadableMemory, RecallItem>();
function itemOf(memory: ReadableMemory, memo: ItemMemo): RecallItem {
  let item = memoryItems.get(memory);
  if (item === undefined) {
    item = memoryItem(memory.version, memory.fields, memo);
    memoryItems.set(memory, item);
  }
  return item;
}

export type RelevanceDeps = Pick<ReadSide, 'keyStore' | 'retrievalIndexes' | 'retrieval' | 'eventStore' | 'lifecyclePolicies'>;

export async function byRelevance(
  deps: RelevanceDeps,
  input: RelevanceInput,
  query: RetrievalQuery,
): Promise<{ items: RecallItem[]; report: RetrievalReport }> {
  const conflictsOf = new Map<string, string[]>();
  for (const c of input.conflicts)
    for (const m of c.members) (conflictsOf.get(m) ?? conflictsOf.set(m, []).get(m)!).push(c.item.conflictId);
  const labelsOf = (r: ReadableMemory) => memoryLabels(r.version, r.fields, input.memo);
  // Only memories carry vectors (a summary entry has none): a failed embedder leaves the ranking lexical, never the answer failed.
  const semantic = await semanticInputs(deps, input.ref, query.query, [...input.readable.keys()]);
  const ready = semantic.status === 'ready' ? semantic : undefined;
  const { documents, fingerprint, summaryEntryAt } = recallDocuments(
    input.readable,
    conflictsOf,
    input.summary,
    labelsOf,
    ready,
    input.documents,
  );
  // A write changes a document or a few: updating costs those, a build all of them.
  const update = (previous: RetrievalIndex) => updateRetrievalIndex(previous, documents, Math.max(64, documents.length / 4));
  const index: RetrievalIndex =
    deps.retrievalIndexes && input.revision !== null
      ? await deps.retrievalIndexes.obtainInTurns(input.ref, input.revision, fingerprint, () => buildInTurns(documents), update)
      : buildRetrievalIndex(documents);
  const lifecycle = await (deps.lifecyclePolicies ?? new LifecyclePolicyReader(deps.eventStore)).current(input.ref.tenant);
  const policy = withLifecycleHalfLives(DEFAULT_RETRIEVAL_POLICY, lifecycle.policy);
  const answer = retrieve(index, query, { now: input.now, policy, ...(ready ? { queryVector: ready.queryVector } : {}) });

  const summaryEntry = (id: string) => {
    const at = summaryEntryAt.get(id);
    return at === undefined ? undefined : input.summary!.entries[at];
  };
  const conflictItems = new Map(input.conflicts.map((c) => [c.item.conflictId, c.item]));
  const items: RecallItem[] = [];
  const shown = new Set<string>();
  const show = (ref: string, item: RecallItem, retrieval: RecallItem['retrieval']) => {
    if (shown.has(ref)) return;
    shown.add(ref);
    items.push(retrieval ? explainedItem(item, retrieval) : item);
  };
  const reachedKeys = new Set<string>();
  for (const hit of answer.hits) {
    const ids = hit.type === 'memory' ? [hit.id] : hit.sides.map((s) => s.id);
    for (const id of ids) reachedKeys.add(index.documents.get(id)!.document.key);
    // A side of an open conflict is shown as the conflict, with every side (seed 003).
    const conflictIds = hit.type === 'conflict' ? hit.conflictIds : (conflictsOf.get(hit.id) ?? []);
    if (conflictIds.length > 0) {
      for (const id of conflictIds) if (conflictItems.has(id)) show(`conflict:${id}`, conflictItems.get(id)!, hit.retrieval);
    } else if (hit.type === 'memory') {
      const memory = input.readable.get(hit.id);
      show(hit.id, summaryEntry(hit.id)?.item ?? itemOf(memory!, input.memo), hit.retrieval);
    }
  }
  const matchesKey = query.key === undefined ? () => false : keyMatcher(query.key);
  for (const c of input.conflicts) {
    if (reachedKeys.has(c.item.key) || matchesKey(c.item.key)) show(`conflict:${c.item.conflictId}`, c.item, undefined);
  }
  return {
    items,
    report: {
      topK: query.topK,
      key: query.key ?? null,
      kind: query.kind ?? null,
      minScore: query.minScore ?? null,
      terms: answer.terms,
      indexed: index.size,
      considered: answer.considered,
      signals: answer.signals,
      semantic:
        semantic.status === 'ready'
          ? { status: 'ready', model: semantic.model, vectors: semantic.vectors.size }
          : semantic.status === 'failed'
            ? { status: 'failed', code: semantic.failure.code }
            : { status: 'off' },
      hits: answer.hits.length,
      belowMinScore: answer.belowMinScore,
    },
  };
}
