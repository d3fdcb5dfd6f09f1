// What recall opened of a subject, kept in memory (issue 16, speed): the
// current versions at one projection schema and subject revision, each
// memory's fields opened with its key, and the retrieval document made of
// it. A warm recall reads the projection's small rows (clock, alias,
// conflicts) and, at the same revision, not the versions again nor a key
// (src/queries/recall/recall.ts verifies the keys of what it serves); a
// write moves the revision, and the next recall reads the versions and
// opens only the memories it has not opened at that version and key.
// Never written anywhere; dropped with the subject's indexes by the erasure
// check (which also searches what it holds); bounded, least recently used
// subjects first.
import type { RetrievalDocument } from '../../../domain/retrieval/index.js';
import type { RecallItem } from '../items.js';
import type { ShownSummaryEntry } from '../summary-items.js';
import type { OpenedSummary, SummaryOpenings } from '../published-summary.js';
import type { ReadableMemory } from '../readable.js';
import type { CurrentVersion, KnownVersions } from '../subject-view-shape.js';

export interface OpenedMemory extends ReadableMemory {
  /** The key the fields were opened with: a version sealed under another is opened again. */
  readonly keyId: string;
  /** The subject's memory key epoch read before that key was found (KeyStore.memoryKeyEpoch). */
  readonly epoch?: string;
}

export interface OpenedCorpus extends KnownVersions {
  /** Current active versions, trust as it stands at `revision`. */
  readonly versions: readonly CurrentVersion[];
  /** memory id -> opened fields (only memories some reader passed the hard filters for). */
  readonly opened: ReadonlyMap<string, OpenedMemory>;
  /** memory id -> its retrieval document, with what it was made from (version, conflicts, labels, vector). */
  readonly documents: Map<string, { readonly made: string; readonly document: RetrievalDocument }>;
  /** The published summary the last recall served, opened, with its entries' renderings (published-summary.ts). */
  readonly summary?: OpenedSummary;
  /**
   * What recall showed a reader at this revision, by what else decides it
   * (the reader's filters, what they left out, the open conflicts, the
   * source: recall.ts readerKey): a warm recall of an unchanged subject takes
   * it instead of making every item again. The summary's entries the reader
   * may be shown (with or without a query), and without a query the items in
   * standing order. Few entries each (READERS_KEPT).
   */
  readonly shown: Map<string, readonly ShownSummaryEntry[]>;
  readonly standing: Map<string, readonly RecallItem[]>;
}

/** Readers' views kept per corpus (readers with different filters of one subject). */
export const READERS_KEPT = 8;

const subjectKeyOf = (ref: { tenant: string; subject: string }) => `${ref.tenant}\u0000${ref.subject}`;

export class OpenedCorpora {
  // Insertion order is use order: the first entry is the least recently used.
  readonly #entries = new Map<string, OpenedCorpus>();
  #memories = 0;
  /** Summaries being opened now (published-summary.ts): held only while the opening is under way. */
  readonly summaryOpenings: SummaryOpenings = new Map();

  /** @param memories opened memories kept in all (~5 KiB each with their documents). */
  constructor(readonly memories: number) {}

  /** The subject's corpus as it is now (any revision): what a recall may reuse. */
  current(ref: { tenant: string; subject: string }): OpenedCorpus | undefined {
    const key = subjectKeyOf(ref);
    const corpus = this.#entries.get(key);
    if (corpus) {
      this.#entries.delete(key);
      this.#entries.set(key, corpus);
    }
    return corpus;
  }

  /** Keeps the corpus unless one of a later revision was kept meanwhile (a slower concurrent recall never puts back an older one). */
  keep(ref: { tenant: string; subject: string }, corpus: OpenedCorpus): void {
    const key = subjectKeyOf(ref);
    const held = this.#entries.get(key);
    if (held && held.schema === corpus.schema && held.revision > corpus.revision) return;
    this.#delete(key);
    if (corpus.opened.size > this.memories) return;
    this.#entries.set(key, corpus);
    this.#memories += corpus.opened.size;
    while (this.#memories > this.memories) this.#delete(this.#entries.keys().next().value!);
  }

  /** Drops the subject's corpus when it is older than `revision` (any without one). */
  drop(ref: { tenant: string; subject: string }, revision = Number.POSITIVE_INFINITY): number {
    const key = subjectKeyOf(ref);
    const held = this.#entries.get(key);
    if (!held || held.revision >= revision) return 0;
    this.#delete(key);
    return 1;
  }

  /** What the erasure check searches: every corpus, with whose it is. */
  *corpora(): Iterable<{ readonly tenant: string; readonly subject: string; readonly corpus: OpenedCorpus }> {
    for (const [key, corpus] of this.#entries) {
      const [tenant, subject] = key.split('\u0000') as [string, string];
      yield { tenant, subject, corpus };
    }
  }

  get size(): { readonly subjects: number; readonly memories: number } {
    return { subjects: this.#entries.size, memories: this.#memories };
  }

  #delete(key: string): void {
    const held = this.#entries.get(key);
    if (!held) return;
    this.#entries.delete(key);
    this.#memories -= held.opened.size;
  }
}
