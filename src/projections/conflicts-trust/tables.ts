// Typed definitions of the conflicts-and-trust read model's tables (DDL in
// ddl.ts): what a subject's stream says about disagreements between its
// memories and about how far each source is trusted. Neither needs anything
// from the memory read model to be applied, so it is built, versioned and
// rebuilt on its own. Column conventions: runtime/column-types.ts.
import type { Instant, Int8, Json, NullableInstant, NullableInt8, NullableJson } from '../runtime/column-types.js';
import type { RuntimeDb } from '../runtime/registry.js';

export interface ConflictsTable {
  tenant: string;
  subject: string;
  conflict_id: string;
  key: string;
  scopes: Json<Record<string, string>>;
  memory_ids: Json<string[]>;
  /** open | resolved. A conflict whose members left before a resolution is "moot": readers see that from the members' rows. */
  status: string;
  detected_at: Instant;
  detected_tx: Instant;
  detected_commit: Int8;
  detected_prepare: Int8;
  winner: string | null;
  losers: NullableJson<string[]>;
  resolved_at: NullableInstant;
  resolved_tx: NullableInstant;
  resolved_commit: NullableInt8;
  resolved_prepare: NullableInt8;
}

/** The current trust override of each source ref of a subject (the last TrustChanged for it): recall ranks and filters by it. */
export interface TrustOverridesTable {
  tenant: string;
  subject: string;
  source_ref: string;
  level: string;
  changed_at: Instant;
  event_id: string;
  tx: Instant;
  commit: Int8;
  prepare: Int8;
}

/** The revision of the last subject event this read model applied, per subject stream: events at or below it are not applied again. */
export interface SubjectRevisionsTable {
  tenant: string;
  subject: string;
  stream_revision: Int8;
}

export type ConflictsTrustTables = {
  conflicts: ConflictsTable;
  trust_overrides: TrustOverridesTable;
  subject_revisions: SubjectRevisionsTable;
};

/** The read model's schema as the runtime builds it: its tables, the checkpoint and the faults. */
export type ConflictsTrustDb = ConflictsTrustTables & RuntimeDb;

export const CONFLICTS_TRUST_TABLES = [
  'conflicts',
  'trust_overrides',
  'subject_revisions',
] as const satisfies readonly (keyof ConflictsTrustTables)[];
