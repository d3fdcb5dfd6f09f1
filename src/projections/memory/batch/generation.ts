// What an ArtifactGenerated writes: the artifact row's manifest fields, a
// lineage edge per input (at the memory's version current at generation)
// and to the parent, and the input as the STALE rules judge it.
import type { Insertable } from 'kysely';
import type { ArtifactEvent } from '../../../domain/events/artifact-events.js';
import type { LineageEdgesTable } from '../tables.js';
import type { ArtifactRow, Cause, InputRef } from './artifact-rows.js';
import type { EventPoint } from './event-point.js';
import type { MemoryVersion } from './memory-version.js';

type Generated = Extract<ArtifactEvent, { type: 'ArtifactGenerated' }>['data'];
type Manifest = Generated['manifest'];
type ManifestInput = Manifest['inputs'][number];

/** The row's fields from the manifest; the output is not kept when the artifact derives from erased content. */
export function generatedFields(data: Generated, at: EventPoint, erased: boolean): Partial<ArtifactRow> {
  const m = data.manifest;
  return {
    tenant: m.tenant,
    subject: m.subject,
    status: 'generated',
    parent_artifact_id: m.parentArtifactId,
    new_covers_through: m.newCoversThrough,
    input_epoch: m.inputEpoch,
    input_root: m.inputRoot,
    input_count: m.inputs.length,
    conflict_ids: JSON.stringify(m.conflictIds),
    expected_alias: m.expectedAlias === null ? null : JSON.stringify(m.expectedAlias),
    selector_version: m.selectorVersion,
    prompt_version: m.promptVersion,
    model_snapshot: m.modelSnapshot,
    output: erased ? null : JSON.stringify(data.output),
    output_hash: data.outputHash,
    generated_at: data.generatedAt,
    generated_tx: at.tx,
    generated_commit: at.commit,
    generated_prepare: at.prepare,
  };
}

export function memoryEdge(
  artifactId: string,
  m: Manifest,
  input: ManifestInput,
  current: MemoryVersion | undefined,
  at: EventPoint,
): Insertable<LineageEdgesTable> {
  return {
    artifact_id: artifactId,
    kind: 'memory',
    target_tenant: m.tenant,
    target_subject: m.subject,
    target_id: input.memoryId,
    target_version: current?.version ?? null,
    target_sequence: input.sequence,
    value_hash: input.valueHash,
    content_hash: input.contentHash ?? null,
    commit: at.commit,
    prepare: at.prepare,
  };
}

export function parentEdge(artifactId: string, m: Manifest, parentId: string, at: EventPoint): Insertable<LineageEdgesTable> {
  return {
    artifact_id: artifactId,
    kind: 'artifact',
    target_tenant: m.tenant,
    target_subject: m.subject,
    target_id: parentId,
    target_version: null,
    target_sequence: null,
    value_hash: null,
    content_hash: null,
    commit: at.commit,
    prepare: at.prepare,
  };
}

/** The input with its memory's source and trust as they stood at generation (unknown memory: none). */
export function inputAt(m: Manifest, input: ManifestInput, current: MemoryVersion | undefined): InputRef {
  return {
    tenant: m.tenant,
    subject: m.subject,
    memoryId: input.memoryId,
    sourceType: current?.sourceType ?? null,
    sourceRefs: current?.sourceRefs ?? [],
    trust: current?.trust ?? null,
  };
}

/** An input no longer active at generation: the event that opened its current version is the cause. */
export function causeOfVersion(current: MemoryVersion, m: Manifest): Cause {
  return {
    eventId: current.openedBy,
    type: current.openedByType,
    tx: current.txFrom,
    commit: current.txFromCommit,
    prepare: current.txFromPrepare,
    memoryId: current.memoryId,
    tenant: m.tenant,
    subject: m.subject,
  };
}
