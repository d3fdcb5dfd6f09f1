// Consolidation (DESIGN section 4): prepare (snapshot, generate, gate; not
// readable), run (prepare and publish, with forward recovery), publish (the
// fenced alias switch) and approve (shadow mode). A refused switch, a failed
// gate or a failed generation is a problem (409, 422, 502) that still carries
// the result, with the artifact id, as its `result` extension.
import { idSchema } from '../../domain/values/ids.js';
import { z } from 'zod';
import { approveArtifact } from '../../commands/consolidation/approve.js';
import { prepareConsolidation, type PrepareResult } from '../../commands/consolidation/prepare.js';
import { publishArtifact, type ArtifactContext, type PublishResult } from '../../commands/consolidation/publish.js';
import type { Result } from '../../domain/result/result.js';
import { runConsolidation, type RunResult } from '../../commands/consolidation/run.js';
import type { ApiPrincipal } from '../../infrastructure/api-keys/api-key-store.js';
import { codeProblem, problemError, refusalProblem } from '../problem.js';
import { defineRoute, type RouteReply, type RouteSpec } from '../route.js';
import { artifactParams, openObject, subjectParams } from '../schemas/common.js';
import type { ApiServices } from '../services.js';
import { artifactAccess } from './artifacts.js';
import { requireSubject } from './subject-exists.js';

const consolidationBody = z
  .strictObject({
    mode: z.enum(['run', 'prepare'], { error: 'must be run or prepare' }).default('run'),
    through: z
      .number({ error: 'must be a whole number of at least 1' })
      .int({ error: 'must be a whole number of at least 1' })
      .min(1, { error: 'must be a whole number of at least 1' })
      .optional(),
    fromRaw: z.boolean({ error: 'must be true or false' }).optional(),
    /** The boundary compacted at (recorded in the manifest); absent: the schedule. */
    reason: z.enum(['handoff', 'phase', 'branch'], { error: 'must be handoff, phase or branch' }).optional(),
    /** The run or task the compaction record belongs to. */
    runId: idSchema().optional(),
  })
  .optional();

const result = (description: string) => ({ description, schema: openObject });

function settled<R>(outcome: Result<R>): R {
  if (!outcome.ok) throw refusalProblem(outcome.rejection);
  return outcome.result;
}

function prepareAnswer(prepare: PrepareResult): RouteReply {
  if (prepare.status === 'gate_passed') return { status: 201, body: prepare };
  if (prepare.status === 'gate_failed') {
    const codes = [...new Set((prepare.gate.reasons ?? []).map((r) => r.code))].join(', ');
    throw codeProblem('gate_failed', `artifact ${prepare.artifactId} did not pass the loss gate (${codes || 'no reasons'})`, {
      artifactId: prepare.artifactId,
      result: prepare,
    });
  }
  throw codeProblem('generation_failed', `the summarizer failed: ${prepare.generationError?.code ?? 'unknown'}`, {
    artifactId: prepare.artifactId,
    result: prepare,
  });
}

function publishAnswer(publish: PublishResult, prepare?: unknown): RouteReply {
  const body = prepare === undefined ? publish : prepare;
  if (publish.status === 'switched') return { status: prepare === undefined ? 200 : 201, body };
  if (publish.status === 'awaiting_approval') return { status: 202, body };
  // A refused switch is a conflict with the subject's state, whichever fence refused it.
  throw problemError(409, publish.reason, publish.message, { artifactId: publish.artifactId, result: body });
}

function runAnswer(run: RunResult): RouteReply {
  if (run.status === 'up_to_date') return { status: 200, body: run };
  if (run.status === 'gate_failed' || run.status === 'generation_failed') return prepareAnswer(run.prepare);
  return publishAnswer(run.publish, run);
}

function artifactContext(principal: ApiPrincipal, requestId: string): ArtifactContext {
  return { tenant: principal.tenant, actor: `api-key:${principal.keyId}`, correlationId: requestId };
}

export function consolidationRoutes(services: ApiServices): RouteSpec[] {
  const { ledger, consolidation } = services;
  const access = artifactAccess(services);
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/consolidations',
      operationId: 'consolidate',
      summary: 'Prepare an artifact (mode=prepare) or prepare and publish it (mode=run, the default)',
      tag: 'consolidation',
      permission: 'consolidation:run',
      params: subjectParams,
      body: consolidationBody,
      responses: {
        200: result('run: the alias already covers the subject (up_to_date)'),
        201: result('prepare: a gated artifact; run: the alias switched to a new artifact'),
        202: result('run: the artifact waits for approval (shadow mode)'),
      },
      handler: async (call) => {
        await requireSubject(ledger, call.principal!.tenant, call.params.subject);
        const context = call.commandContext(call.params.subject);
        const body = call.body ?? { mode: 'run' as const };
        const options = {
          ...(body.through !== undefined ? { through: body.through } : {}),
          ...(body.fromRaw ? { fromRaw: true } : {}),
          ...(body.reason !== undefined ? { trigger: body.reason } : {}),
          ...(body.runId !== undefined ? { runId: body.runId } : {}),
        };
        if (body.mode === 'prepare') return prepareAnswer(settled(await prepareConsolidation(ledger, consolidation, context, options)));
        return runAnswer(settled(await runConsolidation(ledger, consolidation, context, options)));
      },
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/artifacts/{artifactId}/publish',
      operationId: 'publishArtifact',
      summary: 'Switch the alias to a gated artifact, fenced by the subject stream revision',
      tag: 'consolidation',
      permission: 'consolidation:run',
      params: artifactParams,
      access,
      responses: { 200: result('switched'), 202: result('waits for approval (shadow mode)') },
      handler: async (call) =>
        publishAnswer(
          settled(await publishArtifact(ledger, consolidation, artifactContext(call.principal!, call.requestId), call.params.artifactId)),
        ),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/artifacts/{artifactId}/approve',
      operationId: 'approveArtifact',
      summary: 'Shadow mode: approve a gated artifact and publish it (admin)',
      tag: 'consolidation',
      permission: 'consolidation:approve',
      params: artifactParams,
      access,
      responses: { 200: result('approved and switched'), 202: result('approved; still waiting (should not happen)') },
      handler: async (call) =>
        publishAnswer(
          settled(await approveArtifact(ledger, consolidation, artifactContext(call.principal!, call.requestId), call.params.artifactId)),
        ),
    }),
  ];
}
