// assess(artifact): may a reader continue from this artifact's compaction
// record? ready, blocked (not this tenant's, subject's or run's),
// needs_rehydration (epoch or contract changed, STALE, an anchor missing or
// its pointer broken, an anchored input changed since, no gated output),
// needs_evidence (an input or the output can no longer be read),
// needs_review (a discard without a reason, an uncertain anchor unchecked).
// The artifact stream holds the record; the projection says where the
// subject and its memories stand and whether the artifact is STALE.
import { COMPACTION_RECORD_VERSION } from '../../domain/compaction/record.js';
import { anyText } from '../../projections/runtime/bulk.js';
import { openOutput, openStatements } from '../../reads/opened/artifact-output.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';
import { CURRENT_SELECTOR } from '../../domain/consolidation/selector.js';
import { requireId } from '../../domain/values/ids.js';
import { readMemoryTables } from '../memory-tables.js';
import { memoryKeysOf } from '../opened/memory-fields.js';
import type { ReadSide } from '../read-side.js';
import { assessFacts, type AssessmentStatus, type Contract, type Finding } from './assessment.js';
import { recordView, type RecordView } from './record-view.js';

export interface AssessInput {
  readonly tenant: string;
  readonly artifactId: string;
  /** The subject the caller means to use it for; checked when given. */
  readonly subject?: string;
  /** The run or task the reader continues (checked against the record's when given). */
  readonly runId?: string;
  /** Anchors the reader needs besides those the record requires of itself. */
  readonly requiredAnchors?: readonly string[];
  /** The current summarizer's prompt and model (compared when given); the selector and the record version default to the current ones. */
  readonly contract?: Partial<Contract>;
}

export interface Assessment {
  readonly tenant: string;
  readonly artifactId: string;
  readonly status: AssessmentStatus;
  readonly findings: readonly Finding[];
  /** Absent when the artifact is not this tenant's. */
  readonly artifact?: {
    readonly subject: string;
    readonly inputEpoch: number;
    readonly newCoversThrough: number;
    readonly inputs: number;
    readonly coldTier: number;
    readonly selectorVersion: string;
    readonly promptVersion: string;
    readonly modelSnapshot: string;
    /** The read alias points at it now. */
    readonly current: boolean;
  };
  /** The compaction record, its anchors' statements opened (absent when the artifact was never generated). */
  readonly record?: RecordView;
}

export async function assess(read: Pick<ReadSide, 'projections' | 'eventStore' | 'keyStore'>, input: AssessInput): Promise<Assessment> {
  const tenant = requireId('tenant', input.tenant);
  const artifactId = requireId('artifact', input.artifactId);
  const subjectAsked = input.subject === undefined ? undefined : requireId('subject', input.subject);
  const record = await readArtifact(read.eventStore, artifactId);
  const manifest = record.generated?.manifest ?? record.generationFailed?.manifest;
  // A missing artifact and another tenant's answer alike: nothing leaks across tenants.
  if (!manifest || manifest.tenant !== tenant) {
    return {
      tenant,
      artifactId,
      status: 'blocked',
      findings: [{ status: 'blocked', code: 'not_in_tenant', message: `no artifact ${artifactId} belongs to tenant ${tenant}` }],
    };
  }
  const ref = { tenant, subject: manifest.subject };
  const subjectView = await readMemoryTables(read.projections, async (tables) => ({
    clock: await tables
      .selectFrom('subject_clock')
      .select(['input_epoch', 'forgotten'])
      .where('tenant', '=', tenant)
      .where('subject', '=', manifest.subject)
      .executeTakeFirst(),
    alias: await tables
      .selectFrom('summary_alias')
      .select('artifact_id')
      .where('tenant', '=', tenant)
      .where('subject', '=', manifest.subject)
      .executeTakeFirst(),
    stale: await tables
      .selectFrom('stale_artifacts')
      .select(['cause_type', 'cause_memory_id', 'via_artifact_id'])
      .where('artifact_id', '=', artifactId)
      .executeTakeFirst(),
  }));
  const compaction = record.generated?.record;
  const pointed = [...new Set((compaction?.pointers ?? []).flatMap((p) => (p.memoryId !== undefined ? [p.memoryId] : [])))];
  const memoryStatus = await statusesOf(read, tenant, manifest.subject, pointed);
  const [keys, output, statements] = await Promise.all([
    memoryKeysOf(
      read.keyStore,
      ref,
      manifest.inputs.map((i) => i.memoryId),
    ),
    record.generated ? openOutput(read.keyStore, ref, artifactId, record.generated.output) : Promise.resolve(undefined),
    record.generated?.statements ? openStatements(read.keyStore, ref, artifactId, record.generated.statements) : Promise.resolve(undefined),
  ]);
  const verdict = assessFacts({
    ...(subjectAsked !== undefined ? { subjectAsked } : {}),
    ...(input.runId !== undefined ? { runAsked: input.runId } : {}),
    ...(input.requiredAnchors ? { anchorsAsked: input.requiredAnchors } : {}),
    manifest,
    generated: record.generated !== undefined,
    ...(record.generationFailed ? { generationError: record.generationFailed.error.code } : {}),
    gateFailures: record.gatePassed ? [] : (record.gateFailed?.reasons.map((r) => r.code) ?? (record.generated ? ['not_gated'] : [])),
    ...(record.rejected ? { rejection: record.rejected.reason } : {}),
    contract: {
      selectorVersion: input.contract?.selectorVersion ?? CURRENT_SELECTOR,
      recordVersion: input.contract?.recordVersion ?? COMPACTION_RECORD_VERSION,
      ...(input.contract?.promptVersion ? { promptVersion: input.contract.promptVersion } : {}),
      ...(input.contract?.modelSnapshot ? { modelSnapshot: input.contract.modelSnapshot } : {}),
    },
    inputEpoch: subjectView.clock?.input_epoch ?? 0,
    subjectForgotten: subjectView.clock?.forgotten ?? false,
    stale: subjectView.stale
      ? {
          causeType: subjectView.stale.cause_type,
          causeMemoryId: subjectView.stale.cause_memory_id,
          viaArtifactId: subjectView.stale.via_artifact_id,
        }
      : null,
    output,
    outputReadable: output !== undefined,
    record: compaction,
    unreadableInputs: manifest.inputs.filter((i) => keys.get(i.memoryId)?.status !== 'found').map((i) => i.memoryId),
    memoryStatus,
  });
  return {
    tenant,
    artifactId,
    ...verdict,
    artifact: {
      subject: manifest.subject,
      inputEpoch: manifest.inputEpoch,
      newCoversThrough: manifest.newCoversThrough,
      inputs: manifest.inputs.length,
      coldTier: compaction?.discards.filter((d) => d.category === 'over_token_budget').length ?? 0,
      selectorVersion: manifest.selectorVersion,
      promptVersion: manifest.promptVersion,
      modelSnapshot: manifest.modelSnapshot,
      current: subjectView.alias?.artifact_id === artifactId,
    },
    ...(compaction ? { record: recordView(compaction, statements) } : {}),
  };
}

/** Each memory's status now (its latest version), for the memories a record points at. */
async function statusesOf(
  read: Pick<ReadSide, 'projections'>,
  tenant: string,
  subject: string,
  memoryIds: readonly string[],
): Promise<Map<string, string>> {
  if (memoryIds.length === 0) return new Map();
  const rows = await readMemoryTables(read.projections, (tables) =>
    tables
      .selectFrom('memory_versions')
      .select(['memory_id', 'status'])
      .where('tenant', '=', tenant)
      .where('subject', '=', subject)
      .where('memory_id', '=', anyText(memoryIds))
      .where('tx_to', 'is', null)
      .execute(),
  );
  return new Map(rows.map((r) => [r.memory_id, r.status]));
}
