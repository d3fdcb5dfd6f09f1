// A recall of the same corpus that reads the same memories takes the
// documents and fingerprint the last one made (retrieval/made-from.ts)
// instead of describing and hashing every memory again. The index cache is
// keyed by that fingerprint at one revision, so whatever moves without the
// revision — a memory's trust, usage or version, a conflict, a vector, the
// embedding model, the reader's filters, a summary entry's sources — must
// give the documents and fingerprint a recall that remembers nothing gives.
import { describe, expect, it } from 'vitest';
import { recallDocuments, type DocumentMemo, type SummaryToIndex } from '../../src/queries/recall/retrieval/documents.js';
import type { ReadableMemory } from '../../src/queries/recall/readable.js';
import type { CurrentVersion } from '../../src/queries/recall/subject-view-shape.js';
import { currentVersion as version } from './support/current-version.js';
import type { ShownSummaryEntry } from '../../src/queries/recall/summary-items.js';

const memory = (v: CurrentVersion): ReadableMemory => ({
  version: v,
  fields: { status: 'readable', value: { type: 'text', text: `value of ${v.memory_id}` }, content: `about ${v.memory_id}` },
});

const USAGE = { usedCount: 1, confirmedCount: 0, ignoredCount: 0, harmfulCount: 0, correctedCount: 0, underReview: false };

function claimEntry(index: number, sources: readonly CurrentVersion[]): ShownSummaryEntry {
  const claim = {
    key: 'contact.channel',
    scopes: {},
    value: { type: 'text', text: 'sms' },
    polarity: 'affirmed',
    derivedFrom: sources.map((s) => s.memory_id),
  };
  return { entry: { type: 'claim', index, claim, sources }, item: { labels: [] }, rank: {} } as unknown as ShownSummaryEntry;
}

interface Inputs {
  readonly memories: readonly ReadableMemory[];
  readonly conflicts: ReadonlyArray<readonly [string, readonly string[]]>;
  readonly semantic?: { readonly model: string; readonly vectors: ReadonlyArray<readonly [string, readonly number[]]> };
  readonly summary?: {
    readonly artifactId: string;
    readonly sources: ReadonlyArray<readonly CurrentVersion[]>;
    readonly documents: DocumentMemo;
  };
}

/** Each recall hands over maps and arrays of its own (the memories themselves are the corpus's objects). */
function made(inputs: Inputs, memo?: DocumentMemo) {
  const summary: SummaryToIndex | undefined = inputs.summary && {
    artifactId: inputs.summary.artifactId,
    entries: inputs.summary.sources.map((sources, i) => claimEntry(i, sources)),
    documents: inputs.summary.documents,
  };
  return recallDocuments(
    new Map(inputs.memories.map((r) => [r.version.memory_id, r])),
    new Map(inputs.conflicts.map(([id, ids]) => [id, [...ids]])),
    summary,
    () => [],
    inputs.semantic && { model: inputs.semantic.model, vectors: new Map(inputs.semantic.vectors.map(([id, v]) => [id, v])) },
    memo,
  );
}

const [a, b, c] = [version('a'), version('b', { usage: USAGE }), version('c', { kind: 'semantic' })].map(memory) as [
  ReadableMemory,
  ReadableMemory,
  ReadableMemory,
];
const summaryMemo: DocumentMemo = new Map();
const BASE: Inputs = {
  memories: [a, b, c],
  conflicts: [['b', ['k-1']]],
  semantic: { model: 'm1', vectors: [['a', [1, 0, 0]]] },
  summary: { artifactId: 'art-1', sources: [[a.version, c.version]], documents: summaryMemo },
};

const moved = (r: ReadableMemory, overrides: Partial<CurrentVersion>) => memory({ ...r.version, ...overrides });

const CHANGES: ReadonlyArray<readonly [string, Inputs]> = [
  ['trust', { ...BASE, memories: [moved(a, { trust: 'model_inference' }), b, c] }],
  ['usage counts', { ...BASE, memories: [a, moved(b, { usage: { ...USAGE, ignoredCount: 2 } }), c] }],
  ['last reinforcement', { ...BASE, memories: [a, moved(b, { usage: { ...USAGE, lastReinforcedAt: '2026-11-20T00:00:00.000Z' } }), c] }],
  ['version', { ...BASE, memories: [a, b, moved(c, { version: 2 })] }],
  ['a conflict opened', { ...BASE, conflicts: [...BASE.conflicts, ['c', ['k-2']]] }],
  ['a conflict closed', { ...BASE, conflicts: [] }],
  ['a conflict of other sides', { ...BASE, conflicts: [['b', ['k-1', 'k-3']]] }],
  ['a vector', { ...BASE, semantic: { model: 'm1', vectors: [...BASE.semantic!.vectors, ['c', [0, 1, 0]]] } }],
  ['a vector of another length', { ...BASE, semantic: { model: 'm1', vectors: [['a', [1, 0]]] } }],
  ['no vectors', { ...BASE, semantic: undefined }],
  ['another model', { ...BASE, semantic: { model: 'm2', vectors: BASE.semantic!.vectors } }],
  ['a filter leaving a memory out', { ...BASE, memories: [a, c], summary: { ...BASE.summary!, sources: [[a.version, c.version]] } }],
  ['the memories in another order', { ...BASE, memories: [c, a, b] }],
  [
    'a summary entry source moved',
    { ...BASE, summary: { ...BASE.summary!, sources: [[a.version, moved(c, { trust: 'human_review' }).version]] } },
  ],
  ['another summary entry', { ...BASE, summary: { ...BASE.summary!, sources: [[a.version, c.version], [b.version]] } }],
  ['another summary', { ...BASE, summary: { ...BASE.summary!, artifactId: 'art-2', documents: new Map() } }],
  ['no summary', { ...BASE, summary: undefined }],
];

describe('recall documents remembered by what they were made from', () => {
  it('are taken as they are when nothing moved since the corpus last made them', () => {
    const memo: DocumentMemo = new Map();
    const first = made(BASE, memo);
    const again = made(BASE, memo);
    expect(again).toBe(first);
    expect(again).toEqual(made(BASE));
  });

  it.each(CHANGES)('are made again, as a recall remembering nothing makes them, when %s moved', (_, changed) => {
    const memo: DocumentMemo = new Map();
    const before = made(BASE, memo);
    const after = made(changed, memo);
    const fresh = made(changed);
    expect(after.fingerprint).toBe(fresh.fingerprint);
    expect(after.documents).toEqual(fresh.documents);
    // Back again: the fingerprint of the first.
    expect(made(BASE, memo).fingerprint).toBe(before.fingerprint);
  });

  it('say which summary entry each summary document stands for, made again or taken as before', () => {
    const memo: DocumentMemo = new Map();
    const inputs: Inputs = { ...BASE, summary: { ...BASE.summary!, sources: [[a.version, c.version], [b.version], [c.version]] } };
    for (const answer of [made(inputs, memo), made(inputs, memo)]) {
      const summaryIds = answer.documents.map((d) => d.id).filter((id) => id.startsWith('#'));
      expect(summaryIds).toEqual(['#c:art-1:0', '#c:art-1:1', '#c:art-1:2']);
      expect(summaryIds.map((id) => answer.summaryEntryAt.get(id))).toEqual([0, 1, 2]);
      expect(answer.summaryEntryAt.get('a')).toBeUndefined();
    }
  });

  it('tell every change apart from the base (the index cache would otherwise serve the base index)', () => {
    const base = made(BASE).fingerprint;
    // Summary entries' documents are the artifact's: the fingerprint names them only, their sources move with the revision.
    const named = CHANGES.filter(([what]) => what !== 'a summary entry source moved');
    for (const [, changed] of named) expect(made(changed).fingerprint).not.toBe(base);
  });
});

describe('recall documents of the very map the corpus holds (a warm recall, no vectors)', () => {
  const readable = new Map([a, b, c].map((r) => [r.version.memory_id, r]));
  const of = (conflicts: ReadonlyArray<readonly [string, readonly string[]]>, memo?: DocumentMemo) =>
    recallDocuments(readable, new Map(conflicts.map(([id, ids]) => [id, [...ids]])), undefined, () => [], undefined, memo);

  it('are taken as they are while the conflicts are the same, and made again when one opened, closed or changed sides', () => {
    const memo: DocumentMemo = new Map();
    const first = of([['b', ['k-1']]], memo);
    expect(of([['b', ['k-1']]], memo)).toBe(first);
    for (const conflicts of [
      [
        ['b', ['k-1']],
        ['c', ['k-1']],
      ],
      [],
      [['b', ['k-2']]],
      [['a', ['k-1']]],
    ] as const) {
      const after = of(conflicts, memo);
      expect(after.fingerprint).toBe(of(conflicts).fingerprint);
      expect(after.documents).toEqual(of(conflicts).documents);
      expect(after.fingerprint).not.toBe(first.fingerprint);
    }
  });
});

describe('recall documents first made from a map of their own', () => {
  /** A real Map that counts the walks over its memories. */
  class CountedMap<K, V> extends Map<K, V> {
    walks = 0;
    override values(): MapIterator<V> {
      this.walks += 1;
      return super.values();
    }
  }
  const counted = () => new CountedMap([a, b, c].map((r) => [r.version.memory_id, r]));
  const of = (readable: ReadonlyMap<string, ReadableMemory>, memo: DocumentMemo) =>
    recallDocuments(readable, new Map(), undefined, () => [], undefined, memo);

  it('walk the corpus map once to find it the same, then take it by identity (a warm reader hands that map again)', () => {
    const memo: DocumentMemo = new Map();
    const first = of(counted(), memo);
    const corpus = counted();
    expect(of(corpus, memo)).toBe(first);
    expect(corpus.walks).toBe(1);
    for (let i = 0; i < 3; i++) expect(of(corpus, memo)).toBe(first);
    expect(corpus.walks).toBe(1);
    // Another map of other memories is still walked and made again.
    const fewer = new CountedMap([a, b].map((r) => [r.version.memory_id, r]));
    expect(of(fewer, memo).fingerprint).toBe(recallDocuments(fewer, new Map(), undefined, () => [], undefined).fingerprint);
  });
});
