// Candidates (issue 17): the writes the gate held for review, for a reviewer
// (a reviewer or admin key): list them, accept one (the normal write decision; 201, or
// 200 for a DUPLICATE), reject one (kept for audit). Memories under review
// after harmful feedback are listed too: accept reinstates (200), reject retracts.
import { z } from 'zod';
import { acceptCandidate, listCandidates, rejectCandidate } from '../../commands/policy/candidates.js';
import { PROPOSAL_STATUSES } from '../../domain/subject/state.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { memoryParams, openObject, reasonSchema, subjectParams } from '../schemas/common.js';
import { lifecycleResultSchema, recordResultSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

export function candidateRoutes(services: ApiServices): RouteSpec[] {
  const { ledger } = services;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/candidates',
      operationId: 'listCandidates',
      summary: 'Writes held for review (pending by default), oldest first',
      tag: 'policy',
      permission: 'candidates:review',
      params: subjectParams,
      query: z.strictObject({
        status: z.enum([...PROPOSAL_STATUSES, 'all'], { error: `must be one of ${PROPOSAL_STATUSES.join(', ')}, all` }).default('pending'),
      }),
      responses: { 200: { description: 'candidates: id, kind, key, status, expiry and the gate audit', schema: z.array(openObject) } },
      handler: async (call) => ({
        status: 200,
        body: await listCandidates(ledger, call.commandContext(call.params.subject), call.query.status),
      }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/candidates/{memoryId}/accept',
      operationId: 'acceptCandidate',
      summary: 'Accept a candidate: the normal write decision on its entry',
      tag: 'policy',
      permission: 'candidates:review',
      idempotent: true,
      params: memoryParams,
      responses: {
        201: { description: 'recorded (NEW, REFINEMENT, SUPERSEDES or CONFLICTS)', schema: recordResultSchema },
        200: {
          description: 'a DUPLICATE (an existing entry was corroborated), or a memory under review reinstated',
          schema: z.union([recordResultSchema, lifecycleResultSchema]),
        },
      },
      handler: async (call) => {
        const result = resultOf(await acceptCandidate(ledger, call.commandContext(call.params.subject), call.params.memoryId));
        return { status: !('decision' in result) || result.decision === 'DUPLICATE' ? 200 : 201, body: result };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/candidates/{memoryId}/reject',
      operationId: 'rejectCandidate',
      summary: 'Reject a candidate (kept for audit)',
      tag: 'policy',
      permission: 'candidates:review',
      idempotent: true,
      params: memoryParams,
      body: z.strictObject({ reason: reasonSchema.optional() }),
      responses: { 200: { description: 'rejected', schema: lifecycleResultSchema } },
      handler: async (call) => ({
        status: 200,
        body: resultOf(await rejectCandidate(ledger, call.commandContext(call.params.subject), call.params.memoryId, call.body.reason)),
      }),
    }),
  ];
}
