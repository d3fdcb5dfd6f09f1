// An artifacts row as the batch holds it, and the lineage/STALE records that
// come with artifacts, with their conversions from the table's columns.
import type { Insertable, Selectable } from 'kysely';
import type { ArtifactsTable, LineageEdgesTable, StaleArtifactsTable } from '../tables.js';
import type { EventPoint } from './event-point.js';

export type ArtifactRow = Insertable<ArtifactsTable>;

const iso = (d: Date | null): string | null => (d === null ? null : d.toISOString());
const json = (value: unknown): string | null => (value === null ? null : JSON.stringify(value));

export function artifactFromRow(row: Selectable<ArtifactsTable>): ArtifactRow {
  return {
    ...row,
    conflict_ids: json(row.conflict_ids),
    expected_alias: json(row.expected_alias),
    output: json(row.output),
    gate_failures: json(row.gate_failures),
    generation_error: json(row.generation_error),
    generated_at: iso(row.generated_at),
    generated_tx: iso(row.generated_tx),
    published_tx: iso(row.published_tx),
    updated_tx: row.updated_tx.toISOString(),
  };
}

/** The row of an artifact first seen through an event other than ArtifactGenerated. */
export function artifactSkeleton(artifactId: string, at: EventPoint): ArtifactRow {
  return {
    artifact_id: artifactId,
    tenant: null,
    subject: null,
    status: 'generated',
    stream_revision: '-1',
    parent_artifact_id: null,
    new_covers_through: null,
    input_epoch: null,
    input_root: null,
    input_count: null,
    conflict_ids: null,
    expected_alias: null,
    selector_version: null,
    prompt_version: null,
    model_snapshot: null,
    output: null,
    output_hash: null,
    output_erased: false,
    generated_at: null,
    generated_tx: null,
    generated_commit: null,
    generated_prepare: null,
    must_preserve_count: null,
    gate_failures: null,
    generation_error: null,
    rejection_reason: null,
    rejection_message: null,
    published_tx: null,
    published_commit: null,
    published_prepare: null,
    updated_tx: at.tx,
    updated_commit: at.commit,
    updated_prepare: at.prepare,
  };
}

/** A manifest input as lineage knows it, with the source of the memory (for taint and trust). */
export interface InputRef {
  readonly tenant: string;
  readonly subject: string;
  readonly memoryId: string;
  readonly sourceType: string | null;
  readonly sourceRefs: readonly string[];
  readonly trust: string | null;
}

/** A lineage edge row with the source of the memory version it points at (null for parent edges or unknown memories). */
export type EdgeWithSource = Selectable<LineageEdgesTable> & {
  source_type: string | null;
  source_refs: string[] | null;
  trust: string | null;
};

/** What made an artifact STALE. */
export interface Cause {
  readonly eventId: string;
  readonly type: string;
  readonly tx: string;
  readonly commit: string;
  readonly prepare: string;
  readonly memoryId: string | null;
  /** The subject of the causing event (the stale row's subject when the artifact has none). */
  readonly tenant: string;
  readonly subject: string;
}

export function causeAt(at: EventPoint, tenant: string, subject: string, memoryId: string | null = null): Cause {
  return { eventId: at.eventId, type: at.type, tx: at.tx, commit: at.commit, prepare: at.prepare, memoryId, tenant, subject };
}

export function staleRow(
  artifactId: string,
  row: ArtifactRow,
  cause: Cause,
  via: string | null,
  marked: EventPoint,
): Insertable<StaleArtifactsTable> {
  return {
    artifact_id: artifactId,
    tenant: row.tenant ?? cause.tenant,
    subject: row.subject ?? cause.subject,
    cause_event_id: cause.eventId,
    cause_type: cause.type,
    cause_tx: cause.tx,
    cause_commit: cause.commit,
    cause_prepare: cause.prepare,
    cause_memory_id: cause.memoryId,
    via_artifact_id: via,
    marked_commit: marked.commit,
    marked_prepare: marked.prepare,
  };
}
