// An artifact as its stream tells it: manifest facts, gate verdict,
// failures, rejection, approval, whether the alias points at it and whether
// it is STALE now. Never its output: only the alias makes an artifact's
// summary readable (through recall). Another tenant's artifact answers
// exactly as one that does not exist.
import { z } from 'zod';
import { readArtifact, type ArtifactRecord } from '../../reads/streams/artifact-stream.js';
import { artifactStaleness } from '../../domain/consolidation/staleness.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { idSchema, subjectIdSchema } from '../../domain/values/ids.js';
import { assess } from '../../queries/assess/assess.js';
import { ASSESSMENT_STATUSES } from '../../queries/assess/assessment.js';
import { lineage } from '../../queries/lineage/lineage.js';
import { toProvJson } from '../../queries/lineage/prov-json.js';
import type { OwnedAccess } from '../auth/route-access.js';
import { codeProblem } from '../problem.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { artifactParams, openObject } from '../schemas/common.js';
import type { ApiServices } from '../services.js';

export const ARTIFACT_VIEW_STATUSES = ['generated', 'gate_passed', 'gate_failed', 'generation_failed', 'rejected'] as const;

const aliasTuple = z.object({ artifactId: z.string(), sourceEpoch: z.number().int(), coversThrough: z.number().int() });

export const artifactViewSchema = z.object({
  artifactId: z.string(),
  subject: z.string(),
  status: z.enum(ARTIFACT_VIEW_STATUSES),
  newCoversThrough: z.number().int(),
  inputEpoch: z.number().int(),
  expectedAlias: aliasTuple.nullable(),
  parentArtifactId: z.string().nullable(),
  inputs: z.number().int(),
  conflictIds: z.array(z.string()),
  inputRoot: z.string(),
  selectorVersion: z.string(),
  promptVersion: z.string(),
  modelSnapshot: z.string(),
  generatedAt: z.string().nullable(),
  gate: z
    .object({
      passed: z.boolean(),
      mustPreserveCount: z.number().int().optional(),
      reasons: z.array(z.looseObject({ code: z.string(), message: z.string() })).optional(),
    })
    .nullable(),
  generationError: z.object({ code: z.string(), message: z.string() }).nullable(),
  rejection: z.object({ reason: z.string(), message: z.string(), rejectedAt: z.string() }).nullable(),
  approval: z.object({ approvedBy: z.string().optional(), approvedAt: z.string() }).nullable(),
  current: z.boolean(),
  stale: z.boolean(),
});

export async function tenantArtifact(
  services: ApiServices,
  tenant: string,
  artifactId: string,
): Promise<ArtifactRecord & { manifest: NonNullable<ArtifactRecord['generated']>['manifest'] }> {
  const record = await readArtifact(services.ledger.eventStore, artifactId);
  const manifest = record.generated?.manifest ?? record.generationFailed?.manifest;
  if (record.revision < 0 || !manifest || manifest.tenant !== tenant) {
    throw artifactNotFound(artifactId);
  }
  return { ...record, manifest };
}

/** Where an artifact route acts: the subject the artifact was made for (another's answers as a missing artifact). */
export function artifactAccess(services: ApiServices): OwnedAccess<{ artifactId: string }> {
  return {
    kind: 'owned',
    subjectOf: async ({ artifactId }, tenant) => (await tenantArtifact(services, tenant, artifactId)).manifest.subject,
    hidden: ({ artifactId }) => artifactNotFound(artifactId),
  };
}

const artifactNotFound = (artifactId: string) =>
  codeProblem('artifact_not_found', `artifact ${artifactId} does not exist`, { field: 'artifactId' });

function statusOf(record: ArtifactRecord): (typeof ARTIFACT_VIEW_STATUSES)[number] {
  if (record.rejected) return 'rejected';
  if (record.generationFailed) return 'generation_failed';
  if (record.gateFailed) return 'gate_failed';
  if (record.gatePassed) return 'gate_passed';
  return 'generated';
}

export function artifactRoutes(services: ApiServices): RouteSpec[] {
  const access = artifactAccess(services);
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/artifacts/{artifactId}',
      operationId: 'getArtifact',
      summary: "An artifact's manifest facts, gate verdict and standing (never its output)",
      tag: 'artifacts',
      permission: 'memories:read',
      params: artifactParams,
      access,
      responses: { 200: { description: 'the artifact', schema: artifactViewSchema } },
      handler: async (call) => {
        const record = await tenantArtifact(services, call.principal!.tenant, call.params.artifactId);
        const m = record.manifest;
        const state = (await services.ledger.subjects.load(subjectStreamName(m.tenant, m.subject))).state;
        const gate = record.gatePassed
          ? { passed: true, mustPreserveCount: record.gatePassed.mustPreserveCount }
          : record.gateFailed
            ? { passed: false, reasons: record.gateFailed.reasons.map((r) => ({ ...r })) }
            : null;
        return {
          status: 200,
          body: {
            artifactId: record.artifactId,
            subject: m.subject,
            status: statusOf(record),
            newCoversThrough: m.newCoversThrough,
            inputEpoch: m.inputEpoch,
            expectedAlias: m.expectedAlias,
            parentArtifactId: m.parentArtifactId,
            inputs: m.inputs.length,
            conflictIds: m.conflictIds,
            inputRoot: m.inputRoot,
            selectorVersion: m.selectorVersion,
            promptVersion: m.promptVersion,
            modelSnapshot: m.modelSnapshot,
            generatedAt: record.generated?.generatedAt ?? null,
            gate,
            generationError: record.generationFailed?.error ?? null,
            rejection: record.rejected
              ? { reason: record.rejected.reason, message: record.rejected.message, rejectedAt: record.rejected.rejectedAt }
              : null,
            approval: record.approved
              ? {
                  ...(record.approved.approvedBy ? { approvedBy: record.approved.approvedBy } : {}),
                  approvedAt: record.approved.approvedAt,
                }
              : null,
            current: state.alias?.artifactId === record.artifactId,
            stale: artifactStaleness(m, state).stale,
          },
        };
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/artifacts/{artifactId}/lineage',
      operationId: 'lineage',
      summary: 'The derivation graph of an artifact with STALE marks, or its W3C PROV-JSON export (auditor)',
      tag: 'audit',
      permission: 'audit:read',
      params: artifactParams,
      access,
      query: z.strictObject({ format: z.enum(['graph', 'prov-json'], { error: 'must be graph or prov-json' }).default('graph') }),
      responses: { 200: { description: 'the lineage (format=graph) or a PROV-JSON document (format=prov-json)', schema: openObject } },
      handler: async (call) => {
        const tenant = call.principal!.tenant;
        await tenantArtifact(services, tenant, call.params.artifactId);
        await services.readYourWrites();
        const graph = await lineage(services.read, tenant, call.params.artifactId);
        return { status: 200, body: call.query.format === 'prov-json' ? toProvJson(graph) : graph };
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/artifacts/{artifactId}/assessment',
      operationId: 'assessArtifact',
      summary: 'May the artifact be resumed from: ready, blocked, needs_rehydration, needs_evidence or needs_review',
      description:
        "Judged against this service's summarizer (prompt and model) and the current selector; `subject` checks that the artifact belongs to that subject.",
      tag: 'artifacts',
      permission: 'memories:read',
      params: artifactParams,
      access,
      query: z.strictObject({ subject: subjectIdSchema.optional(), runId: idSchema().optional() }),
      responses: {
        200: {
          description: 'the assessment and its findings',
          schema: z.looseObject({
            status: z.enum(ASSESSMENT_STATUSES),
            findings: z.array(z.looseObject({ code: z.string(), message: z.string() })),
          }),
        },
      },
      handler: async (call) => {
        const tenant = call.principal!.tenant;
        await tenantArtifact(services, tenant, call.params.artifactId);
        await services.readYourWrites();
        const { summarizer } = services.consolidation;
        const answer = await assess(services.read, {
          tenant,
          artifactId: call.params.artifactId,
          ...(call.query.subject !== undefined ? { subject: call.query.subject } : {}),
          ...(call.query.runId !== undefined ? { runId: call.query.runId } : {}),
          contract: { promptVersion: summarizer.promptVersion, modelSnapshot: summarizer.modelSnapshot },
        });
        return { status: 200, body: answer };
      },
    }),
  ];
}
