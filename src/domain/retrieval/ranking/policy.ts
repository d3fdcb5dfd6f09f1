// Every weight of retrieval in one value, so that a caller (or a test, or
// the benchmark) can see and change them; the defaults are what recall
// uses. A score is the sum of the contributions below (each hit's reasons
// list them), relevance dominating: it runs 0..1, the boosts together add
// at most about 0.3, so trust and freshness reorder near-ties, not matches.
import type { TrustLevel } from '../../entry/source.js';
import type { MemoryKind, Sensitivity } from '../../entry/vocabulary.js';

export type SignalName = 'key' | 'lexical' | 'semantic';

export interface RetrievalPolicy {
  /** Reciprocal rank fusion: 1 / (k + rank), weighted per signal. */
  readonly fusionK: number;
  readonly signalWeights: Readonly<Record<SignalName, number>>;
  /** How many of each signal's best enter fusion (at least; 4 x topK when larger). */
  readonly candidatesPerSignal: number;
  /** How many of the best-scored documents (at least; 4 x topK when larger) go on to grouping and diversity. */
  readonly rerankPool: number;
  /** relevance = fusedShare x (fused rank share) + (1 - fusedShare) x (strength of the best signal). */
  readonly fusedShare: number;
  readonly lexical: {
    readonly boost: Readonly<Record<'content' | 'key' | 'value' | 'anticipated', number>>;
    /** Query terms at least this long also match index terms they begin. */
    readonly prefixMinLength: number;
    readonly prefixWeight: number;
    /** A query term's truncation to a shorter index term (washer -> wash). */
    readonly truncationWeight: number;
    /** A CJK unigram's weight against a bigram's 1. */
    readonly unigramWeight: number;
  };
  /** Cosines below this are no semantic match. */
  readonly semanticFloor: number;
  readonly weights: {
    readonly relevance: number;
    readonly trust: number;
    readonly freshness: number;
    readonly confidence: number;
    readonly priority: number;
    /** Per doubling of the sources that said the same thing. */
    readonly corroboration: number;
    /** Feedback: at most this much for a memory often used or confirmed (1 - 0.5^n). */
    readonly reinforcement: number;
  };
  readonly trustScale: Readonly<Record<TrustLevel, number>>;
  /** Freshness halves every so many days (Infinity: never). */
  readonly halfLifeDays: Readonly<Record<MemoryKind, number>>;
  /** Older than this without confirmation: stale (Infinity: never). */
  readonly staleAfterDays: Readonly<Record<MemoryKind, number>>;
  readonly penalties: {
    readonly stale: number;
    readonly sensitivity: Readonly<Record<Sensitivity, number>>;
    /** MMR: score - diversity x (highest similarity to an item ranked before). */
    readonly diversity: number;
    /** Feedback: at most this much off a memory often ignored (1 - 0.5^n). */
    readonly ignored: number;
  };
  /** Texts at least this similar (Jaccard of terms, or cosine when both have vectors) collapse into one hit. */
  readonly duplicateSimilarity: number;
  readonly duplicateCosine: number;
  /** Confidence assumed when a memory states none. */
  readonly unknownConfidence: number;
}

export const DEFAULT_RETRIEVAL_POLICY: RetrievalPolicy = {
  fusionK: 30,
  signalWeights: { key: 1, lexical: 1, semantic: 1 },
  candidatesPerSignal: 100,
  rerankPool: 60,
  fusedShare: 0.5,
  lexical: {
    boost: { content: 1, key: 1.5, value: 1.5, anticipated: 1 },
    prefixMinLength: 4,
    prefixWeight: 0.4,
    truncationWeight: 0.4,
    unigramWeight: 0.6,
  },
  semanticFloor: 0.2,
  weights: { relevance: 1, trust: 0.12, freshness: 0.05, confidence: 0.05, priority: 0.1, corroboration: 0.03, reinforcement: 0.06 },
  trustScale: {
    human_review: 1,
    user_assertion: 0.8,
    verified_tool_fact: 0.6,
    derived_summary: 0.4,
    model_inference: 0.2,
    untrusted: 0,
  },
  halfLifeDays: { episodic: 90, semantic: 365, profile: 365, procedural: 365, constraint: Infinity, permission: Infinity },
  staleAfterDays: { episodic: Infinity, semantic: 730, profile: 365, procedural: 730, constraint: Infinity, permission: Infinity },
  penalties: {
    stale: 0.05,
    sensitivity: { public: 0, normal: 0, personal: 0.02, confidential: 0.05, restricted: 0.1 },
    diversity: 0.1,
    ignored: 0.03,
  },
  duplicateSimilarity: 0.85,
  duplicateCosine: 0.95,
  unknownConfidence: 0.5,
};
