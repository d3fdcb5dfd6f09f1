// Why a hit ranked where it did: stable, machine-readable codes with small
// details. Reasons name the hit's own terms, fields and ids of other
// memories, never another memory's text. `contribution` is the reason's
// share of the score (the contributions add up to it); 0 for reasons that
// only explain.
import type { TrustLevel } from '../../entry/source.js';
import type { MemoryKind, Sensitivity } from '../../entry/vocabulary.js';
import type { LexicalField } from '../corpus/lexical-index.js';

export type RetrievalReason =
  | { readonly code: 'relevance'; readonly contribution: number; readonly fused: number; readonly strength: number }
  | {
      readonly code: 'lexical_match';
      readonly contribution: 0;
      readonly rank: number;
      readonly terms: readonly string[];
      /** Matched only by prefix or truncation. */
      readonly partial: readonly string[];
      readonly fields: readonly LexicalField[];
      readonly strength: number;
    }
  | {
      readonly code: 'key_match';
      readonly contribution: 0;
      readonly rank: number;
      readonly via: 'key_filter' | 'query_terms';
      readonly terms: readonly string[];
      readonly strength: number;
    }
  | { readonly code: 'semantic_match'; readonly contribution: 0; readonly rank: number; readonly cosine: number }
  | { readonly code: 'same_slot'; readonly contribution: 0; readonly as: string }
  | { readonly code: 'conflict_side'; readonly contribution: 0; readonly conflictIds: readonly string[] }
  | { readonly code: 'trust'; readonly contribution: number; readonly level: TrustLevel }
  | { readonly code: 'freshness'; readonly contribution: number; readonly ageDays: number; readonly halfLifeDays: number | null }
  | { readonly code: 'confidence'; readonly contribution: number; readonly value: number | null }
  | { readonly code: 'priority'; readonly contribution: number; readonly value: number }
  | { readonly code: 'feedback'; readonly contribution: number; readonly reinforced: number; readonly ignored: number }
  | {
      readonly code: 'stale';
      readonly contribution: number;
      readonly ageDays: number;
      readonly staleAfterDays: number;
      readonly kind: MemoryKind;
    }
  | { readonly code: 'privacy'; readonly contribution: number; readonly sensitivity: Sensitivity }
  | { readonly code: 'duplicates_collapsed'; readonly contribution: number; readonly count: number; readonly members: readonly string[] }
  | { readonly code: 'outranked_by_trust'; readonly contribution: number; readonly by: string }
  | { readonly code: 'diversity'; readonly contribution: number; readonly similarTo: string; readonly similarity: number }
  | { readonly code: 'kept_for_conflict'; readonly contribution: 0; readonly minScore: number };

export type ReasonCode = RetrievalReason['code'];

export interface RetrievalExplanation {
  readonly score: number;
  /** 1 = best. */
  readonly rank: number;
  readonly reasons: readonly RetrievalReason[];
}

export const sumOfContributions = (reasons: readonly RetrievalReason[]): number =>
  reasons.reduce((sum, reason) => sum + reason.contribution, 0);
