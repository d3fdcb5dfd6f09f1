// Recall's hard filters (DESIGN section 7; seed 003: identity -> allowed
// namespaces -> type -> time): applied to the subject's current active
// versions before anything is ranked or packed. Tenant and subject are in
// the SQL, as are the statuses (retracted, superseded, expired and forgotten
// versions are never read). What remains is judged here, with the reason an
// entry was left out, so the answer can say why.
import type { Scopes } from '../../domain/entry/scopes.js';
import type { SourceType } from '../../domain/entry/source.js';
import { sensitivityRank, type Sensitivity } from '../../domain/entry/vocabulary.js';
import { isTainted } from '../../domain/subject/trust.js';
import { servesPurpose } from '../../domain/entry/purposes.js';
import type { CurrentVersion } from './subject-view-shape.js';

export const FILTER_REASONS = [
  'out_of_scope',
  'above_sensitivity',
  /** The entry lists purposes and the reader's purpose is not one of them (an entry without purposes serves any). */
  'purpose',
  'not_yet_valid',
  'no_longer_valid',
  'expired',
  'tainted',
  'untrusted',
  'demoted',
  /** Harmful feedback put it under review (issue 18): a reviewer reinstates or retracts it (`memledger candidates`). */
  'under_review',
  'unreadable',
] as const;
export type FilterReason = (typeof FILTER_REASONS)[number];

export interface HardFilters {
  readonly scopes: Scopes;
  readonly maxSensitivity: Sensitivity;
  /** The reader's purpose; absent: purposes are not checked. */
  readonly purpose?: string | undefined;
  /** Epoch milliseconds. */
  readonly now: number;
  readonly taint: { readonly refPatterns: readonly string[]; readonly sourceTypes: readonly string[] };
  /** Demoted memories to leave out (empty when the reader asked to include them). */
  readonly demoted: ReadonlySet<string>;
}

/** An entry applies to a reader when every scope the entry names has the reader's value (an unscoped entry applies everywhere). */
export function inScope(entry: Record<string, string>, reader: Scopes): boolean {
  return Object.entries(entry).every(([k, v]) => reader[k as keyof Scopes] === v);
}

/** Undefined when the version passes; otherwise the first reason it does not. Readability is judged after opening. */
export function filterReason(version: CurrentVersion, filters: HardFilters): FilterReason | undefined {
  if (!inScope(version.scopes, filters.scopes)) return 'out_of_scope';
  if (sensitivityRank(version.sensitivity as Sensitivity) > sensitivityRank(filters.maxSensitivity)) return 'above_sensitivity';
  if (filters.purpose !== undefined && !servesPurpose(version.purposes, filters.purpose)) return 'purpose';
  if (version.valid_from.getTime() > filters.now) return 'not_yet_valid';
  if (version.valid_to !== null && version.valid_to.getTime() <= filters.now) return 'no_longer_valid';
  // Due but not swept yet: the TTL counts from the moment it passes, not from the sweeper's event.
  if (version.expires_at !== null && version.expires_at.getTime() <= filters.now) return 'expired';
  const policy = { version: 0, refPatterns: filters.taint.refPatterns, sourceTypes: filters.taint.sourceTypes as SourceType[] };
  if (isTainted(policy, { type: version.source_type as SourceType, refs: version.source_refs })) return 'tainted';
  // A source ref whose trust was lowered to untrusted (TrustChanged): its statements are not recalled, like a tainted one's.
  if (version.trust === 'untrusted') return 'untrusted';
  // Demoted by the lifecycle (issue 18): served only to a reader that asks with includeDemoted.
  if (filters.demoted.has(version.memory_id)) return 'demoted';
  if (version.usage?.underReview === true) return 'under_review';
  return undefined;
}

export function emptyFilterCounts(): Record<FilterReason, number> {
  return Object.fromEntries(FILTER_REASONS.map((r) => [r, 0])) as Record<FilterReason, number>;
}
