// What retrieval answers: hits in rank order, each explained. A memory hit
// names its document and the near-duplicates it stands for; a conflict
// hit names every side, most trusted first, each with its own explanation.
import type { SignalName } from './ranking/policy.js';
import type { RetrievalExplanation } from './ranking/reasons.js';

export interface MemoryHit {
  readonly type: 'memory';
  readonly id: string;
  /** Every document this hit stands for, the representative (`id`) first: how many sources said it. */
  readonly members: readonly string[];
  readonly labels: readonly string[];
  readonly retrieval: RetrievalExplanation;
}

export interface ConflictSideHit {
  readonly id: string;
  readonly labels: readonly string[];
  readonly retrieval: RetrievalExplanation;
}

export interface ConflictHit {
  readonly type: 'conflict';
  readonly conflictIds: readonly string[];
  readonly sides: readonly ConflictSideHit[];
  readonly retrieval: RetrievalExplanation;
}

export type RetrievalHit = MemoryHit | ConflictHit;

export interface RetrievalAnswer {
  /** The query's terms, as the tokenizer made them. */
  readonly terms: readonly string[];
  readonly hits: readonly RetrievalHit[];
  /** Documents scored (candidates of any signal, and their slot and conflict siblings). */
  readonly considered: number;
  /** Candidates each signal contributed. */
  readonly signals: Readonly<Record<SignalName, number>>;
  /** Hits left out because they scored below minScore. */
  readonly belowMinScore: number;
}
