// assess(artifact): may this artifact be resumed from / read as it is?
// ready, blocked (not this tenant's or subject's), needs_rehydration (epoch
// or contract changed, STALE, no gated output), needs_evidence (an input or
// the output can no longer be read), needs_review (a discard without a
// reason). The artifact stream is the record; the projection says where the
// subject stands and whether the artifact is STALE.
import { openOutput } from '../../reads/opened/artifact-output.js';
import { readArtifact } from '../../reads/streams/artifact-stream.js';
import { CURRENT_SELECTOR } from '../../domain/consolidation/selector.js';
import { requireId } from '../../domain/values/ids.js';
import { readMemoryTables } from '../memory-tables.js';
import { memoryKeysOf } from '../opened/memory-fields.js';
import type { ReadSide } from '../read-side.js';
import { assessFacts, type AssessmentStatus, type Contract, type Finding } from './assessment.js';

export interface AssessInput {
  readonly tenant: string;
  readonly artifactId: string;
  /** The subject the caller means to use it for; checked when given. */
  readonly subject?: string;
  /** The current summarizer's prompt and model (compared when given); the selector defaults to the current one. */
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
  const [keys, output] = await Promise.all([
    memoryKeysOf(
      read.keyStore,
      ref,
      manifest.inputs.map((i) => i.memoryId),
    ),
    record.generated ? openOutput(read.keyStore, ref, artifactId, record.generated.output) : Promise.resolve(undefined),
  ]);
  const verdict = assessFacts({
    ...(subjectAsked !== undefined ? { subjectAsked } : {}),
    manifest,
    generated: record.generated !== undefined,
    ...(record.generationFailed ? { generationError: record.generationFailed.error.code } : {}),
    gateFailures: record.gatePassed ? [] : (record.gateFailed?.reasons.map((r) => r.code) ?? (record.generated ? ['not_gated'] : [])),
    ...(record.rejected ? { rejection: record.rejected.reason } : {}),
    contract: {
      selectorVersion: input.contract?.selectorVersion ?? CURRENT_SELECTOR,
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
    unreadableInputs: manifest.inputs.filter((i) => keys.get(i.memoryId)?.status !== 'found').map((i) => i.memoryId),
    coldTier: record.generated?.coldTier ?? [],
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
      coldTier: record.generated?.coldTier?.length ?? 0,
      selectorVersion: manifest.selectorVersion,
      promptVersion: manifest.promptVersion,
      modelSnapshot: manifest.modelSnapshot,
      current: subjectView.alias?.artifact_id === artifactId,
    },
  };
}
