// The per-index structures retrieval needs, built once from the documents
// (pure: the same documents in any order build the same index). Built
// from what recall decrypts and held in memory only: nothing here is
// meant to be written anywhere.
import type MiniSearch from 'minisearch';
import { InvalidInput } from '../../validation/invalid-input.js';
import { isFiniteVector } from '../signals/semantic.js';
import { tokenize } from '../text/tokenize.js';
import type { RetrievalDocument } from './document.js';
import { keyTermDocuments, type KeyTermDocuments } from './key-term-documents.js';
import { buildLexicalIndex, type LexicalRecord } from './lexical-index.js';
import { termSignature } from './term-signature.js';
import { termStatistics, type TermStatistics } from './term-statistics.js';

export interface IndexedDocument {
  readonly document: RetrievalDocument;
  /** Terms of content and value: what near-duplicates and diversity compare. */
  readonly statementTerms: ReadonlySet<string>;
  /** The statement terms' signature (term-signature.ts): most pairs are told apart by it alone. */
  readonly statementSignature: number;
  readonly keyTerms: readonly string[];
  /** key + scope, for kinds that hold one current value per slot (not episodic). */
  readonly slot: string | undefined;
  /** Slot + polarity + normalised value: the same statement said twice. */
  readonly statement: string | undefined;
  /** Epoch ms freshness counts from. */
  readonly observedAt: number;
  readonly vectorNorm: number;
}

export interface RetrievalIndex {
  readonly size: number;
  readonly documents: ReadonlyMap<string, IndexedDocument>;
  /** Ids in code-unit order: every iteration over documents follows it. */
  readonly ids: readonly string[];
  readonly lexical: MiniSearch<LexicalRecord>;
  /** Over all lexical fields: what a query term is worth. */
  readonly terms: TermStatistics;
  /** Over keys: what a key term is worth. */
  readonly keyTerms: TermStatistics;
  /** Key term -> the documents whose key holds it: what the key signal looks up. */
  readonly keyTermDocuments: KeyTermDocuments;
  readonly slots: ReadonlyMap<string, readonly string[]>;
  readonly conflicts: ReadonlyMap<string, readonly string[]>;
  readonly dimensions: number | undefined;
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function instant(text: string | undefined, field: string): number | undefined {
  if (text === undefined) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new InvalidInput(field, 'must be an ISO 8601 instant');
  return ms;
}

function group(into: Map<string, string[]>, name: string, id: string): void {
  const members = into.get(name);
  if (members) members.push(id);
  else into.set(name, [id]);
}

/** One document's part of an index: what retrieval reads of it, and what BM25 indexes. */
export function indexDocument(document: RetrievalDocument): { readonly indexed: IndexedDocument; readonly record: LexicalRecord } {
  const recordedAt = instant(document.recordedAt, 'documents.recordedAt')!;
  const confirmedAt = instant(document.confirmedAt, 'documents.confirmedAt') ?? recordedAt;
  if (document.vector && !isFiniteVector(document.vector)) throw new InvalidInput('documents.vector', 'must hold finite numbers');
  const content = document.content === undefined ? [] : tokenize(document.content);
  const value = document.value === undefined ? [] : tokenize(document.value);
  const key = tokenize(document.key);
  const anticipated = (document.anticipatedQueries ?? []).flatMap((q) => tokenize(q));
  const scope = document.scope ?? '';
  const slot = document.kind === 'episodic' ? undefined : `${document.key}\u0000${scope}`;
  const statementTerms = new Set([...content, ...value]);
  return {
    record: { id: document.id, fields: { content, key, value, anticipated } },
    indexed: {
      document,
      statementTerms,
      statementSignature: termSignature(statementTerms),
      keyTerms: [...new Set(key)],
      slot,
      statement: slot === undefined ? undefined : `${slot}\u0000${document.polarity ?? 'affirmed'}\u0000${value.join(' ')}`,
      observedAt: Math.max(recordedAt, confirmedAt),
      vectorNorm: document.vector ? Math.hypot(...document.vector) : 0,
    },
  };
}

/** Every term of a record's fields, once: what the term statistics count. */
export const recordTerms = (r: LexicalRecord): ReadonlySet<string> =>
  new Set([...r.fields.content, ...r.fields.key, ...r.fields.value, ...r.fields.anticipated]);

/** The vectors' common length; refused when they differ. */
export function commonDimensions(documents: Iterable<IndexedDocument>): number | undefined {
  let dimensions: number | undefined;
  for (const { document } of documents) {
    if (!document.vector) continue;
    dimensions ??= document.vector.length;
    if (document.vector.length !== dimensions) throw new InvalidInput('documents.vector', `must all have ${dimensions} dimensions`);
  }
  return dimensions;
}

/**
 * The build in steps of `chunk` documents, yielding between them (a caller
 * may let other work run there; the domain does no I/O): the same index as
 * buildRetrievalIndex, which runs the steps at once.
 */
export function* retrievalIndexSteps(documents: readonly RetrievalDocument[], chunk: number): Generator<void, RetrievalIndex, void> {
  const sorted = [...documents].sort((a, b) => compareIds(a.id, b.id));
  const indexed = new Map<string, IndexedDocument>();
  const records: LexicalRecord[] = [];
  const slots = new Map<string, string[]>();
  const conflicts = new Map<string, string[]>();
  for (const document of sorted) {
    if (indexed.size > 0 && indexed.size % chunk === 0) yield;
    if (indexed.has(document.id)) throw new InvalidInput('documents.id', `${document.id} appears twice`);
    const { indexed: one, record } = indexDocument(document);
    records.push(record);
    if (one.slot !== undefined) group(slots, one.slot, document.id);
    for (const conflictId of new Set(document.conflictIds ?? [])) group(conflicts, conflictId, document.id);
    indexed.set(document.id, one);
  }
  const lexical = buildLexicalIndex([]);
  for (let i = 0; i < records.length; i += chunk) {
    yield;
    lexical.addAll(records.slice(i, i + chunk));
  }
  return {
    size: indexed.size,
    documents: indexed,
    ids: [...indexed.keys()],
    lexical,
    terms: termStatistics(records.map(recordTerms)),
    keyTerms: termStatistics([...indexed.values()].map((d) => new Set(d.keyTerms))),
    keyTermDocuments: keyTermDocuments(indexed.values()),
    slots,
    conflicts,
    dimensions: commonDimensions(indexed.values()),
  };
}

export function buildRetrievalIndex(documents: readonly RetrievalDocument[]): RetrievalIndex {
  const steps = retrievalIndexSteps(documents, Number.POSITIVE_INFINITY);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
