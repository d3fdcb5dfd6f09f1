// What recall holds of one subject, as read by readSubjectView
// (subject-view.ts) in one statement: the shapes, apart from the SQL.
import type { TrustLevel } from '../../domain/entry/source.js';
import type { PromotionOrigin } from '../../domain/events/promotion-events.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { MemoryUsage } from '../../domain/usage/usage.js';
import type { ProjectionFault } from '../../projections/runtime/faults.js';

/** The columns of a current memory version that recall uses (instants as Date). */
export interface CurrentVersion {
  readonly memory_id: string;
  readonly version: number;
  readonly sequence: number;
  readonly kind: string;
  readonly key: string;
  readonly scopes: Record<string, string>;
  readonly value: Sealed | null;
  readonly content: Sealed | null;
  /** Write-time query expansion, sealed (null: none, or erased). */
  readonly anticipated_queries: Sealed | null;
  readonly polarity: string;
  readonly source_type: string;
  readonly source_refs: string[];
  readonly trust: string;
  readonly confidence: number | null;
  readonly sensitivity: string;
  readonly consent_ref: string | null;
  /** Purpose labels; null: any purpose. */
  readonly purposes: string[] | null;
  readonly valid_from: Date;
  readonly valid_to: Date | null;
  readonly expires_at: Date | null;
  readonly tx_from: Date;
  readonly opened_by: string;
  readonly opened_by_type: string;
  /** An accepted promotion's origin (issue 19); null: not promoted. */
  readonly promoted_from: PromotionOrigin | null;
  /** What feedback said about the memory (memory_usage); null: none yet. */
  readonly usage: MemoryUsage | null;
}

export interface AliasView {
  readonly artifactId: string;
  readonly sourceEpoch: number;
  readonly coversThrough: number;
  /** Null when the artifact row is missing (it never is after a consistent catch-up). */
  readonly artifact: {
    readonly tenant: string | null;
    readonly subject: string | null;
    readonly status: string;
    readonly output: Sealed | null;
    /** The keyed hash of the output's content (what names it without opening it). */
    readonly outputHash: string | null;
    readonly outputErased: boolean;
  } | null;
  readonly stale: {
    readonly causeType: string;
    readonly causeEventId: string;
    readonly causeMemoryId: string | null;
    readonly viaArtifactId: string | null;
  } | null;
}

export interface ConflictView {
  readonly conflictId: string;
  readonly key: string;
  readonly scopes: Record<string, string>;
  readonly memoryIds: readonly string[];
}

export interface SubjectView {
  /** revision: the last subject event the projection applied. */
  readonly clock: {
    readonly inputEpoch: number;
    readonly highWaterMark: number;
    readonly forgotten: boolean;
    readonly revision: number;
  } | null;
  readonly alias: AliasView | null;
  readonly taint: { readonly refPatterns: readonly string[]; readonly sourceTypes: readonly string[] };
  /** The current TrustChanged level of each source ref that has one. */
  readonly trustOverrides: ReadonlyMap<string, TrustLevel>;
  /** Conflicts recorded open (members may have left since: the caller checks). */
  readonly conflicts: readonly ConflictView[];
  /** Active memories the lifecycle demoted (MemoryDemoted, not restored since): served only when asked for. */
  readonly demoted: ReadonlySet<string>;
  /** In sequence order. */
  readonly versions: readonly CurrentVersion[];
  /** The projection schema the view was read from (what a cached copy of the versions is only good for). */
  readonly schema: string;
  /** True when the versions were not read: the caller holds them at this schema and revision (`versions` is empty then). */
  readonly versionsKnown: boolean;
  /** Events of the subject's stream the projection could not apply (recall refuses while there are any). */
  readonly faults: readonly ProjectionFault[];
}

/** Versions a caller already holds: at this schema and subject revision the statement does not read them again. */
export interface KnownVersions {
  readonly schema: string;
  readonly revision: number;
}

/**
 * Versions by memory id, made once per versions array: a warm recall reads the very array its corpus holds
 * (KnownVersions), so its 1,000-entry map is not made again on every recall. Held weakly: it goes with the array.
 */
const byIdOf = new WeakMap<readonly CurrentVersion[], ReadonlyMap<string, CurrentVersion>>();

export function versionsById(versions: readonly CurrentVersion[]): ReadonlyMap<string, CurrentVersion> {
  let byId = byIdOf.get(versions);
  if (!byId) {
    byId = new Map(versions.map((v) => [v.memory_id, v]));
    byIdOf.set(versions, byId);
  }
  return byId;
}
