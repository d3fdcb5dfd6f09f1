// Retrieval indexes kept in memory per subject (issue 16 item 6; the
// figures behind the choice are in bench/retrieval-speed.ts: building an
// index costs far more than asking it). An index is built from what recall
// decrypts (the subject's opened corpus, opened-corpus.ts, kept here too),
// or updated from the subject's previous one after a write, and is never
// written anywhere. It is keyed by the subject's
// stream revision and a fingerprint of the documents it holds (the hard
// filters' result for one reader): any event of the subject — a forget
// among them — makes every older index unreachable, and a lookup at a newer
// revision drops them; the erasure pipeline drops the subject's indexes
// outright (dropSubject) before it verifies. Bounded: least recently used
// indexes go first, beyond a number of subjects or of documents in all.
import type { RetrievalIndex } from '../../../domain/retrieval/index.js';
import { OpenedCorpora } from './opened-corpus.js';

export interface IndexCacheLimits {
  /** Indexes kept (one subject may have a few: readers with other scopes see other documents). */
  readonly indexes: number;
  /** Documents in all cached indexes (~5 KiB of heap each, measured). */
  readonly documents: number;
}

export const DEFAULT_INDEX_CACHE_LIMITS: IndexCacheLimits = { indexes: 256, documents: 200_000 };

interface Cached {
  readonly subjectKey: string;
  readonly revision: number;
  readonly index: RetrievalIndex;
}

const subjectKeyOf = (ref: { tenant: string; subject: string }) => `${ref.tenant}\u0000${ref.subject}`;

export class RetrievalIndexCache {
  // A Map iterates in insertion order: re-inserting on use makes the first entry the least recently used.
  readonly #entries = new Map<string, Cached>();
  #documents = 0;
  /** Builds under way (obtainInTurns), by index key. */
  readonly #building = new Map<string, Promise<RetrievalIndex>>();
  /** Drops so far: a build that one overtook is not kept. */
  #drops = 0;
  /** What the indexes are built from: the subjects' opened memories (opened-corpus.ts), under the same erasure rules. */
  readonly corpora: OpenedCorpora;

  constructor(readonly limits: IndexCacheLimits = DEFAULT_INDEX_CACHE_LIMITS) {
    this.corpora = new OpenedCorpora(limits.documents);
  }

  /**
   * The index for this subject at this revision and fingerprint: cached; or
   * `update` of the subject's most recently used index, which leaves the
   * cache (its BM25 part moves into the updated one); or built by `build`.
   */
  obtain(
    ref: { tenant: string; subject: string },
    revision: number,
    fingerprint: string,
    build: () => RetrievalIndex,
    update?: (previous: RetrievalIndex) => RetrievalIndex | undefined,
  ): RetrievalIndex {
    const found = this.#reuse(ref, revision, fingerprint, update);
    if (found.index) return found.index;
    return this.#insert(found, build());
  }

  /**
   * The same, with a build that takes turns of the event loop (a cold
   * subject of thousands builds for seconds): concurrent recalls of the same
   * index wait for one build; one that an erasure's drop overtook answers
   * its own recall and is not kept.
   */
  async obtainInTurns(
    ref: { tenant: string; subject: string },
    revision: number,
    fingerprint: string,
    build: () => Promise<RetrievalIndex>,
    update?: (previous: RetrievalIndex) => RetrievalIndex | undefined,
  ): Promise<RetrievalIndex> {
    const key = `${subjectKeyOf(ref)}\u0000${revision}\u0000${fingerprint}`;
    const pending = this.#building.get(key);
    if (pending) return await pending;
    const found = this.#reuse(ref, revision, fingerprint, update);
    if (found.index) return found.index;
    const drops = this.#drops;
    const building = build();
    this.#building.set(key, building);
    try {
      const index = await building;
      return drops === this.#drops ? this.#insert(found, index) : index;
    } finally {
      this.#building.delete(key);
    }
  }

  /** The cached index, or an update of the subject's latest; drops the subject's older ones. */
  #reuse(
    ref: { tenant: string; subject: string },
    revision: number,
    fingerprint: string,
    update?: (previous: RetrievalIndex) => RetrievalIndex | undefined,
  ): { readonly subjectKey: string; readonly key: string; readonly revision: number; readonly index?: RetrievalIndex } {
    const subjectKey = subjectKeyOf(ref);
    const key = `${subjectKey}\u0000${revision}\u0000${fingerprint}`;
    let latest: { readonly key: string; readonly index: RetrievalIndex } | undefined;
    for (const [k, cached] of this.#entries) {
      if (cached.subjectKey !== subjectKey || k === key || cached.revision > revision) continue;
      // Use order: the last one met is the most recently used.
      latest = { key: k, index: cached.index };
      if (cached.revision < revision) this.#delete(k);
    }
    const known = this.#entries.get(key);
    if (known) {
      this.#entries.delete(key);
      this.#entries.set(key, known);
      return { subjectKey, key, revision, index: known.index };
    }
    if (latest && update) {
      this.#delete(latest.key);
      const updated = update(latest.index);
      if (updated) return { subjectKey, key, revision, index: this.#insert({ subjectKey, key, revision }, updated) };
    }
    return { subjectKey, key, revision };
  }

  #insert(at: { readonly subjectKey: string; readonly key: string; readonly revision: number }, index: RetrievalIndex): RetrievalIndex {
    if (index.size > this.limits.documents) return index;
    this.#delete(at.key);
    this.#entries.set(at.key, { subjectKey: at.subjectKey, revision: at.revision, index });
    this.#documents += index.size;
    while (this.#entries.size > this.limits.indexes || this.#documents > this.limits.documents) {
      this.#delete(this.#entries.keys().next().value!);
    }
    return index;
  }

  /** Drops the subject's indexes and opened corpus from before `revision` (all without one): an erasure does, before it is verified. Returns how many. */
  dropSubject(ref: { tenant: string; subject: string }, revision = Number.POSITIVE_INFINITY): number {
    this.#drops += 1;
    const subjectKey = subjectKeyOf(ref);
    let dropped = this.corpora.drop(ref, revision);
    for (const [key, cached] of this.#entries) {
      if (cached.subjectKey === subjectKey && cached.revision < revision) {
        this.#delete(key);
        dropped += 1;
      }
    }
    return dropped;
  }

  /** What the erasure check searches: every cached index, with whose it is. */
  *indexes(): Iterable<{ readonly tenant: string; readonly subject: string; readonly revision: number; readonly index: RetrievalIndex }> {
    for (const cached of this.#entries.values()) {
      const [tenant, subject] = cached.subjectKey.split('\u0000') as [string, string];
      yield { tenant, subject, revision: cached.revision, index: cached.index };
    }
  }

  get size(): { readonly indexes: number; readonly documents: number } {
    return { indexes: this.#entries.size, documents: this.#documents };
  }

  #delete(key: string): void {
    const cached = this.#entries.get(key);
    if (!cached) return;
    this.#entries.delete(key);
    this.#documents -= cached.index.size;
  }
}
