// What recall hands retrieval (issue 16): one document per memory that
// passed the hard filters and was read — raw entries the summary covers and
// cold-tier entries included, so a query reaches them — and, when the
// summary is current, one per claim and open item it can show (seed 001 E).
// Ids: a memory's own id; `#c:<artifact>:<i>` and `#o:<artifact>:<i>` for
// summary entries (`#` starts no memory id). Nothing here leaves memory.
import { createHash } from 'node:crypto';
import { renderScopes, renderValue } from '../../../domain/consolidation/rendering.js';
import { normaliseScopes } from '../../../domain/entry/scopes.js';
import { trustRank, type TrustLevel } from '../../../domain/entry/source.js';
import { sensitivityRank, type MemoryKind, type Polarity, type Sensitivity } from '../../../domain/entry/vocabulary.js';
import type { RetrievalDocument } from '../../../domain/retrieval/index.js';
import { reinforcedAt, lifecycleInputOf, type UsageSource } from '../../../domain/lifecycle/input.js';
import type { ReadableMemory } from '../readable.js';
import type { ShownSummaryEntry } from '../summary-items.js';
import type { CurrentVersion } from '../subject-view-shape.js';
import { madeFrom, sameInputs, type MadeFrom } from './made-from.js';

export const summaryDocumentId = (artifactId: string, entry: ShownSummaryEntry['entry']) =>
  `#${entry.type === 'claim' ? 'c' : 'o'}:${artifactId}:${entry.index}`;

const best = <T>(values: readonly T[], rank: (v: T) => number): T => values.reduce((a, b) => (rank(b) > rank(a) ? b : a));

/**
 * What the lifecycle's decay reads of a current version: its kind, confidence
 * and record time. The memory's usage (lastReinforcedAt and the feedback
 * counts, issue 18 item 2) joins here, the one place recall fills it.
 */
export function usageSourceOf(v: CurrentVersion): UsageSource {
  const u = v.usage;
  return {
    kind: v.kind as MemoryKind,
    confidence: v.confidence,
    recordedAt: v.tx_from.toISOString(),
    // What feedback said (src/domain/usage): the lifecycle's decay and value count from it.
    ...(u
      ? {
          lastReinforcedAt: u.lastReinforcedAt ?? null,
          usedCount: u.usedCount,
          confirmedCount: u.confirmedCount,
          ignoredCount: u.ignoredCount,
        }
      : {}),
  };
}

function memoryDocument(
  r: ReadableMemory,
  conflictIds: readonly string[] | undefined,
  labels: readonly string[],
  vector: readonly number[] | undefined,
): RetrievalDocument {
  const v = r.version;
  const usage = lifecycleInputOf(usageSourceOf(v));
  const u = v.usage;
  return {
    id: v.memory_id,
    kind: v.kind as MemoryKind,
    key: v.key,
    scope: renderScopes(normaliseScopes(v.scopes)),
    polarity: v.polarity as Polarity,
    ...(r.fields.content !== undefined ? { content: r.fields.content } : {}),
    value: renderValue(r.fields.value),
    trust: v.trust as TrustLevel,
    confidence: v.confidence,
    sensitivity: v.sensitivity as Sensitivity,
    recordedAt: usage.recordedAt,
    // Freshness decays from the last reinforcement (confirmed or used), else from the record.
    confirmedAt: reinforcedAt(usage),
    ...(u ? { feedback: { reinforced: u.usedCount + u.confirmedCount, ignored: u.ignoredCount } } : {}),
    ...(conflictIds && conflictIds.length > 0 ? { conflictIds } : {}),
    ...(labels.length > 0 ? { labels } : {}),
    ...(r.fields.anticipatedQueries ? { anticipatedQueries: r.fields.anticipatedQueries } : {}),
    ...(vector ? { vector } : {}),
  };
}

/** A summary entry stands for its sources: their best trust and confidence, their highest sensitivity, their latest recording. */
function summaryDocument(artifactId: string, shown: ShownSummaryEntry): RetrievalDocument {
  const { entry } = shown;
  const sources: readonly CurrentVersion[] = entry.sources;
  const common = {
    id: summaryDocumentId(artifactId, entry),
    trust: best(sources, (s) => trustRank(s.trust as TrustLevel)).trust as TrustLevel,
    confidence: Math.max(...sources.map((s) => s.confidence ?? 0.5)),
    sensitivity: best(sources, (s) => sensitivityRank(s.sensitivity as Sensitivity)).sensitivity as Sensitivity,
    recordedAt: new Date(Math.max(...sources.map((s) => s.tx_from.getTime()))).toISOString(),
    ...(shown.item.labels ? { labels: shown.item.labels } : {}),
  };
  if (entry.type === 'claim') {
    const { claim } = entry;
    const kind = sources[0]!.kind as MemoryKind;
    return {
      ...common,
      kind,
      key: claim.key,
      scope: renderScopes(normaliseScopes(claim.scopes)),
      polarity: claim.polarity,
      value: renderValue(claim.value),
    };
  }
  // Pending work has no slot (several open items must not hold each other back): episodic, without a key.
  return { ...common, kind: 'episodic', key: '', content: entry.openItem.text };
}

export interface RecallDocuments {
  readonly documents: readonly RetrievalDocument[];
  /** What the documents are, for the index cache: the same fingerprint at the same revision is the same index. */
  readonly fingerprint: string;
  /** A summary document's id -> the position of its entry among the summary's entries (a hit on it shows that entry). */
  readonly summaryEntryAt: ReadonlyMap<string, number>;
}

/** Documents made before, by memory id, with what each was made from. */
export type DocumentMemo = Map<string, { readonly made: string; readonly document: RetrievalDocument }>;

/** The summary's entries to index, with the documents made of them by earlier recalls of the same opened summary. */
export interface SummaryToIndex {
  readonly artifactId: string;
  readonly entries: readonly ShownSummaryEntry[];
  readonly documents?: DocumentMemo;
}

/** What each corpus's last documents were made from (kept as long as the corpus's memo is). */
const lastMade = new WeakMap<DocumentMemo, { readonly from: MadeFrom; readonly made: RecallDocuments }>();

export function recallDocuments(
  readable: ReadonlyMap<string, ReadableMemory>,
  conflictsOf: ReadonlyMap<string, readonly string[]>,
  summary: SummaryToIndex | undefined,
  labelsOf: (r: ReadableMemory) => readonly string[],
  semantic: { readonly model: string; readonly vectors: ReadonlyMap<string, readonly number[]> } | undefined,
  memo?: DocumentMemo,
): RecallDocuments {
  const inputs = { readable, conflictsOf, summary, semantic };
  const last = memo && lastMade.get(memo);
  // The warm case: nothing moved since the corpus's last recall, so neither did its documents nor their fingerprint.
  if (last && sameInputs(last.from, inputs)) {
    // Found the same by walking another map of the very same memories: remember this one, which the next recall
    // of the corpus hands again (the first recall of a reader made its documents from a map of its own).
    if (last.from.readable !== readable) lastMade.set(memo, { from: { ...last.from, readable }, made: last.made });
    return last.made;
  }
  const made = makeDocuments(readable.values(), conflictsOf, summary, labelsOf, semantic, memo ?? (new Map() as DocumentMemo));
  if (memo) lastMade.set(memo, { from: madeFrom(inputs), made });
  return made;
}

function makeDocuments(
  readable: Iterable<ReadableMemory>,
  conflictsOf: ReadonlyMap<string, readonly string[]>,
  summary: SummaryToIndex | undefined,
  labelsOf: (r: ReadableMemory) => readonly string[],
  semantic: { readonly model: string; readonly vectors: ReadonlyMap<string, readonly number[]> } | undefined,
  memo: DocumentMemo,
): RecallDocuments {
  const documents: RetrievalDocument[] = [];
  // The model and which memories have a vector are part of what the index is:
  // vectors arrive after the write, and again (of another model) after a re-index.
  const hash = createHash('sha256').update(semantic ? `model:${semantic.model}` : 'lexical');
  for (const r of readable) {
    const id = r.version.memory_id;
    const vector = semantic?.vectors.get(id);
    const conflictIds = conflictsOf.get(id);
    // Trust and labels are the version's at one revision; a vector is the memory's under one model.
    const u = r.version.usage;
    const usage = u ? `${u.usedCount + u.confirmedCount}:${u.ignoredCount}:${u.lastReinforcedAt ?? ''}` : '-';
    const made = `${id}@${r.version.version}@${r.version.trust}@${(conflictIds ?? []).join(',')}@${vector ? `${semantic!.model}:${vector.length}` : '-'}@${usage}`;
    let known = memo.get(id);
    if (known?.made !== made) {
      known = { made, document: memoryDocument(r, conflictIds, labelsOf(r), vector) };
      memo.set(id, known);
    }
    documents.push(known.document);
    hash.update(`\u0000${made}`);
  }
  const summaryEntryAt = new Map<string, number>();
  for (const shown of summary?.entries ?? []) {
    // An entry's document changes with its sources' versions and trust (the rest is the artifact's): kept, it stays the object indexed before.
    const id = summaryDocumentId(summary!.artifactId, shown.entry);
    summaryEntryAt.set(id, summaryEntryAt.size);
    const made = shown.entry.sources.map((v) => `${v.memory_id}@${v.version}@${v.trust}`).join(',');
    let known = summary!.documents?.get(id);
    if (known?.made !== made) {
      known = { made, document: summaryDocument(summary!.artifactId, shown) };
      summary!.documents?.set(id, known);
    }
    documents.push(known.document);
    hash.update(`\u0000${id}`);
  }
  return { documents, fingerprint: hash.digest('hex'), summaryEntryAt };
}
