// Typed definitions of the memory projection's tables (DDL in ddl.ts). Every
// query of the projection goes through Kysely<MemoryProjectionDb>.
//
// Column conventions: runtime/column-types.ts.
import type { PromotionOrigin } from '../../domain/events/promotion-events.js';
import type { Sealed } from '../../domain/events/sealed.js';
import type { Instant, Int8, Json, NullableInstant, NullableInt8, NullableJson } from '../runtime/column-types.js';
import type { RuntimeDb } from '../runtime/registry.js';

export const MEMORY_STATUSES = ['active', 'superseded', 'retracted', 'expired', 'archived', 'forgotten'] as const;
export type MemoryStatus = (typeof MEMORY_STATUSES)[number];

/**
 * One version of a memory entry. The versions of a memory partition system
 * time: [tx_from, tx_to) (tx_to null = still current), each opened by one
 * event and closed by the next event about the memory. A version is never
 * changed after it is written, except (a) tx_to/closed_by when the next
 * version closes it and (b) erasure, which nulls the sealed value, content and
 * their keyed hashes in every version of a forgotten memory.
 */
export interface MemoryVersionsTable {
  tenant: string;
  subject: string;
  memory_id: string;
  /** 1, 2, …: one per event that changed the memory. */
  version: number;
  sequence: number;
  status: MemoryStatus;
  kind: string;
  key: string;
  scopes: Json<Record<string, string>>;
  value_type: string;
  value_hash: string | null;
  value: NullableJson<Sealed>;
  polarity: string;
  content: NullableJson<Sealed>;
  content_hash: string | null;
  /** The sealed JSON array of the entry's anticipated queries (null: none, or erased). */
  anticipated_queries: NullableJson<Sealed>;
  source_type: string;
  source_refs: Json<string[]>;
  /** The source's effective trust when recorded. */
  trust: string;
  confidence: number | null;
  sensitivity: string;
  consent_ref: string | null;
  /** Purpose labels (clear: what it is for, never what it says); null: any purpose. */
  purposes: Json<string[]> | null;
  /** Lineage: the memories this one refines (REFINEMENT); null: none. */
  refines: Json<string[]> | null;
  /** Business time: [valid_from, valid_to), null = open. */
  valid_from: Instant;
  valid_to: NullableInstant;
  expires_at: NullableInstant;
  superseded_by: string | null;
  /** System time: the store's commit time of the opening / closing event. */
  tx_from: Instant;
  tx_to: NullableInstant;
  tx_from_commit: Int8;
  tx_from_prepare: Int8;
  tx_to_commit: NullableInt8;
  tx_to_prepare: NullableInt8;
  /** Event id and type that opened this version; event id that closed it. */
  opened_by: string;
  opened_by_type: string;
  closed_by: string | null;
  /** An accepted promotion's origin (issue 19): the private memory this one copies, ids only. */
  promoted_from: NullableJson<PromotionOrigin>;
}

/** Statements that repeated an entry (DUPLICATE): one row per MemoryCorroborated. */
export interface MemoryCorroborationsTable {
  event_id: string;
  tenant: string;
  subject: string;
  memory_id: string;
  source_type: string;
  source_refs: Json<string[]>;
  confidence: number | null;
  corroborated_at: Instant;
  tx: Instant;
  commit: Int8;
  prepare: Int8;
}

/**
 * Demotions and restorations by the lifecycle (MemoryDemoted, MemoryRestored),
 * one row per event: a memory is demoted while its latest row says so. A
 * demotion opens no memory version (the memory stays active: its versions'
 * tx_from still says when it was recorded, which decay counts from).
 */
export interface MemoryDemotionsTable {
  event_id: string;
  tenant: string;
  subject: string;
  memory_id: string;
  demoted: boolean;
  /** The demotion's reason, or the restoration's. */
  reason: string;
  rule: string | null;
  policy_version: number | null;
  changed_at: Instant;
  tx: Instant;
  commit: Int8;
  prepare: Int8;
}

/** What feedback said about each memory (src/domain/usage): counts, the last reinforcement, and whether it is under review. */
export interface MemoryUsageTable {
  tenant: string;
  subject: string;
  memory_id: string;
  used_count: number;
  confirmed_count: number;
  ignored_count: number;
  harmful_count: number;
  corrected_count: number;
  last_reinforced_at: NullableInstant;
  under_review: boolean;
}

/** H, inputEpoch and the fold's guard per subject stream. */
export interface SubjectClockTable {
  tenant: string;
  subject: string;
  high_water_mark: number;
  input_epoch: number;
  /** Revision of the last subject event applied: events at or below it are not applied again. */
  stream_revision: Int8;
  forgotten: boolean;
  updated_tx: Instant;
  updated_commit: Int8;
  updated_prepare: Int8;
}

/** Every TaintPolicyEscalated, to judge artifacts generated after it. */
export interface TaintEscalationsTable {
  event_id: string;
  tenant: string;
  subject: string;
  policy_version: number;
  ref_patterns: Json<string[]>;
  source_types: Json<string[]>;
  tx: Instant;
  commit: Int8;
  prepare: Int8;
}

export interface SummaryAliasTable {
  tenant: string;
  subject: string;
  artifact_id: string;
  source_epoch: number;
  covers_through: number;
  switched_at: Instant;
  event_id: string;
  tx: Instant;
  commit: Int8;
  prepare: Int8;
}

export const ARTIFACT_STATUSES = ['generated', 'gate_passed', 'gate_failed', 'generation_failed', 'rejected', 'published'] as const;
export type ArtifactStatus = (typeof ARTIFACT_STATUSES)[number];

export interface ArtifactsTable {
  artifact_id: string;
  /** Null only for an artifact whose stream holds nothing but GenerationFailed. */
  tenant: string | null;
  subject: string | null;
  status: ArtifactStatus;
  /** Revision of the last artifact-stream event applied (the guard against applying one twice). */
  stream_revision: Int8;
  parent_artifact_id: string | null;
  new_covers_through: number | null;
  input_epoch: number | null;
  input_root: string | null;
  input_count: number | null;
  conflict_ids: NullableJson<string[]>;
  expected_alias: NullableJson<{ artifactId: string; sourceEpoch: number; coversThrough: number }>;
  selector_version: string | null;
  prompt_version: string | null;
  model_snapshot: string | null;
  /** The sealed summarizer output; null once anything it derives from was erased. */
  output: NullableJson<Sealed>;
  output_hash: string | null;
  output_erased: boolean;
  generated_at: NullableInstant;
  generated_tx: NullableInstant;
  generated_commit: NullableInt8;
  generated_prepare: NullableInt8;
  must_preserve_count: number | null;
  gate_failures: NullableJson<unknown[]>;
  generation_error: NullableJson<{ code: string; message: string }>;
  rejection_reason: string | null;
  rejection_message: string | null;
  published_tx: NullableInstant;
  published_commit: NullableInt8;
  published_prepare: NullableInt8;
  updated_tx: Instant;
  updated_commit: Int8;
  updated_prepare: Int8;
}

export const LINEAGE_EDGE_KINDS = ['memory', 'artifact'] as const;
export type LineageEdgeKind = (typeof LINEAGE_EDGE_KINDS)[number];

/**
 * artifact -> memory version (a manifest input, at the version current when
 * the artifact was generated), artifact -> parent artifact.
 */
export interface LineageEdgesTable {
  artifact_id: string;
  kind: LineageEdgeKind;
  target_tenant: string;
  target_subject: string;
  /** A memory id or the parent artifact id. */
  target_id: string;
  target_version: number | null;
  target_sequence: number | null;
  /** The manifest's keyed hashes of a memory input; null for a parent edge and once the memory is forgotten. */
  value_hash: string | null;
  content_hash: string | null;
  commit: Int8;
  prepare: Int8;
}

/** An artifact is STALE from the first event that invalidated anything it derives from (STALE never ends). */
export interface StaleArtifactsTable {
  artifact_id: string;
  tenant: string;
  subject: string;
  cause_event_id: string;
  cause_type: string;
  cause_tx: Instant;
  cause_commit: Int8;
  cause_prepare: Int8;
  /** The memory the cause was about, when it was about one. */
  cause_memory_id: string | null;
  /** The stale ancestor it inherited STALE from; null when the cause hit it directly. */
  via_artifact_id: string | null;
  /** Where in the log it became STALE: the cause, or its generation when it was built on something already invalid. */
  marked_commit: Int8;
  marked_prepare: Int8;
}

export type MemoryTables = {
  memory_versions: MemoryVersionsTable;
  memory_corroborations: MemoryCorroborationsTable;
  memory_demotions: MemoryDemotionsTable;
  memory_usage: MemoryUsageTable;
  subject_clock: SubjectClockTable;
  taint_escalations: TaintEscalationsTable;
  summary_alias: SummaryAliasTable;
  artifacts: ArtifactsTable;
  lineage_edges: LineageEdgesTable;
  stale_artifacts: StaleArtifactsTable;
};

export const MEMORY_PROJECTION_TABLES = [
  'memory_versions',
  'memory_corroborations',
  'memory_demotions',
  'memory_usage',
  'subject_clock',
  'taint_escalations',
  'summary_alias',
  'artifacts',
  'lineage_edges',
  'stale_artifacts',
] as const satisfies readonly (keyof MemoryTables)[];

/** The read model's schema as the runtime builds it: its tables, the checkpoint and the faults. */
export type MemoryProjectionDb = MemoryTables & RuntimeDb;
