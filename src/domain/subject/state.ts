// The folded state of one subject stream: what decisions and fences need,
// nothing more (no ciphertext). Held in persistent maps so that evolving it
// costs O(log n) per event, not O(n).
import type { Scopes } from '../entry/scopes.js';
import type { Source, SourceType, TrustLevel } from '../entry/source.js';
import type { MemoryKind, Polarity, Sensitivity } from '../entry/vocabulary.js';
import type { AliasTuple } from '../events/alias.js';
import type { DemotionReason } from '../lifecycle/plan.js';
import { PersistentMap } from '../persistent-map/persistent-map.js';
import type { Instant } from '../values/instant.js';
import type { ValueType } from '../values/value.js';
import type { MemoryUsage } from '../usage/usage.js';

export const ENTRY_STATUSES = ['active', 'superseded', 'retracted', 'expired', 'archived', 'forgotten'] as const;
export type EntryStatus = (typeof ENTRY_STATUSES)[number];

export interface EntryState {
  readonly memoryId: string;
  readonly sequence: number;
  readonly kind: MemoryKind;
  readonly key: string;
  readonly scopes: Scopes;
  /** key + scopes: the slot this entry competes in. */
  readonly slot: string;
  readonly valueType: ValueType;
  readonly valueHash: string;
  readonly contentHash?: string;
  readonly polarity: Polarity;
  readonly source: Source;
  readonly trustAtRecord: TrustLevel;
  readonly confidence?: number;
  readonly sensitivity: Sensitivity;
  readonly validFrom: Instant;
  readonly validTo?: Instant;
  readonly expiresAt?: Instant;
  readonly consentRef?: string;
  readonly purposes?: readonly string[];
  readonly status: EntryStatus;
  readonly supersededBy?: string;
  /** Set while the lifecycle sweeper has it demoted (MemoryDemoted): still active (the slot's value), not served unless asked for. */
  readonly demotion?: EntryDemotion;
  readonly corroborations: number;
  /** Conflicts this entry was detected in, oldest first. */
  readonly conflictIds: readonly string[];
  /** What feedback said about it (src/domain/usage); absent until the first feedback. */
  readonly usage?: MemoryUsage;
}

export interface EntryDemotion {
  readonly reason: DemotionReason;
  readonly rule: string;
  readonly policyVersion: number;
  readonly demotedAt: Instant;
}

/** open: unresolved and at least two members active. moot: members left (retracted, superseded, …) before anyone resolved it. */
export type ConflictStatus = 'open' | 'resolved' | 'moot';

export interface ConflictState {
  readonly conflictId: string;
  readonly key: string;
  readonly scopes: Scopes;
  readonly memoryIds: readonly string[];
  readonly status: ConflictStatus;
  readonly winner?: string;
}

export interface TaintPolicy {
  /** 0 = never escalated. */
  readonly version: number;
  /** Exact refs, or prefixes ending with `*`. Sorted. */
  readonly refPatterns: readonly string[];
  readonly sourceTypes: readonly SourceType[];
}

/** A write the gate held for review (MemoryProposed): pending until a reviewer accepts or rejects it, or it expires. */
export const PROPOSAL_STATUSES = ['pending', 'accepted', 'rejected', 'expired', 'forgotten'] as const;
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];

export interface ProposalState {
  readonly memoryId: string;
  readonly kind: MemoryKind;
  readonly key: string;
  readonly proposedAt: Instant;
  readonly expiresAt: Instant;
  readonly status: ProposalStatus;
  /** The memory the accepted write recorded or corroborated. */
  readonly acceptedAs?: string;
}

export interface SubjectState {
  /** H: the sequence of the last MemoryRecorded (0 before any). */
  readonly highWaterMark: number;
  /** Advanced by exactly the events of EPOCH_ADVANCING_EVENTS. */
  readonly inputEpoch: number;
  readonly entries: PersistentMap<EntryState>;
  /** Active memoryIds per slot, in sequence order. */
  readonly activeBySlot: PersistentMap<readonly string[]>;
  /** Active entries that carry an expiresAt, for the sweeper. */
  readonly expiring: PersistentMap<Instant>;
  readonly conflicts: PersistentMap<ConflictState>;
  /** Sorted. */
  readonly openConflictIds: readonly string[];
  /** Trust levels set by TrustChanged, per source ref. */
  readonly trustOverrides: PersistentMap<TrustLevel>;
  readonly taintPolicy: TaintPolicy;
  readonly alias: AliasTuple | null;
  readonly forgotten: boolean;
  /** Candidates, by the memory id they take when accepted. */
  readonly proposals: PersistentMap<ProposalState>;
}

export function initialState(): SubjectState {
  return {
    highWaterMark: 0,
    inputEpoch: 0,
    entries: PersistentMap.empty(),
    activeBySlot: PersistentMap.empty(),
    expiring: PersistentMap.empty(),
    conflicts: PersistentMap.empty(),
    openConflictIds: [],
    trustOverrides: PersistentMap.empty(),
    taintPolicy: { version: 0, refPatterns: [], sourceTypes: [] },
    alias: null,
    forgotten: false,
    proposals: PersistentMap.empty(),
  };
}

/** Active entries of a slot, in sequence order. */
export function activeEntriesInSlot(state: SubjectState, slot: string): EntryState[] {
  return (state.activeBySlot.get(slot) ?? []).flatMap((id) => {
    const entry = state.entries.get(id);
    return entry ? [entry] : [];
  });
}

/** All active entries, in sequence order. O(n): for reads and sweeps, not the write path. */
export function activeEntries(state: SubjectState): EntryState[] {
  return [...state.entries.values()].filter((e) => e.status === 'active').sort((a, b) => a.sequence - b.sequence);
}

export function openConflicts(state: SubjectState): ConflictState[] {
  return state.openConflictIds.flatMap((id) => {
    const conflict = state.conflicts.get(id);
    return conflict ? [conflict] : [];
  });
}
