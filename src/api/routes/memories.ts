// Writing memories: record, supersede, retract, resolve a conflict, list the
// open conflicts (DESIGN section 10). The body of record and supersede is a
// memory entry exactly as the CLI's --entry takes it, plus the optional write
// marks (`marks`: transient, emotional, third_party; the CLI's --mark), which
// travel with the request, not the entry.
import { z } from 'zod';
import { resolveConflict, retractMemory } from '../../commands/lifecycle.js';
import { recordMemory, supersedeMemory, type RecordResult } from '../../commands/record.js';
import { entrySchema } from '../../domain/entry/entry.js';
import { writeMarksSchema, type WriteMark } from '../../domain/policy/write-marks.js';
import type { Result } from '../../domain/result/result.js';
import { openConflicts } from '../../domain/subject/state.js';
import { memoryIdSchema } from '../../domain/values/ids.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { conflictParams, memoryParams, reasonSchema, subjectParams } from '../schemas/common.js';
import { lifecycleResultSchema, openConflictSchema, recordResultSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';
import { requireSubject } from './subject-exists.js';

const recorded = (result: RecordResult) => ({
  status: result.decision === 'DUPLICATE' ? 200 : result.decision === 'CANDIDATE' ? 202 : 201,
  body: result,
});

/**
 * A write into a forgotten subject is refused as subject_forgotten everywhere. These two routes answered
 * already_forgotten before the codes were unified, and their clients were promised it, so they keep it.
 */
function asPromised<R>(outcome: Result<R>): Result<R> {
  if (outcome.ok || outcome.rejection.code !== 'subject_forgotten') return outcome;
  return { ok: false, rejection: { ...outcome.rejection, code: 'already_forgotten' } };
}

/** The entry and the write marks beside it. */
const recordBodySchema = entrySchema.safeExtend({ marks: writeMarksSchema.optional() });

/** The body as the client sent it, without `marks` (the entry is parsed once more by the command), and the marks. */
function entryAndMarks(raw: unknown, marks: readonly WriteMark[] | undefined): [unknown, { marks?: readonly WriteMark[] }] {
  const entry = { ...(raw as Record<string, unknown>) };
  delete entry.marks;
  return [entry, marks !== undefined && marks.length > 0 ? { marks } : {}];
}

const recordResponses = {
  201: { description: 'a new entry (NEW, REFINEMENT, SUPERSEDES or CONFLICTS)', schema: recordResultSchema },
  200: { description: 'a DUPLICATE: the existing entry was corroborated', schema: recordResultSchema },
  202: { description: 'a CANDIDATE: the write policy held the entry for review (not recalled until accepted)', schema: recordResultSchema },
};

export function memoryRoutes(services: ApiServices): RouteSpec[] {
  const { ledger } = services;
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/memories',
      operationId: 'recordMemory',
      summary: 'Record a memory entry',
      description:
        'Passes the write gate (secrets refused 422, a source type above the key 403, the policy may hold a CANDIDATE 202), then decides NEW, DUPLICATE, REFINEMENT (a more precise statement of the current value), SUPERSEDES or CONFLICTS against the active entries with the same key and scopes, with the reasons of the decision. Optional `marks` (transient, emotional, third_party) say what the text alone does not: the policy turns them into a short TTL or a review.',
      tag: 'memories',
      permission: 'memories:write',
      idempotent: true,
      params: subjectParams,
      body: recordBodySchema,
      responses: recordResponses,
      handler: async (call) => {
        const [entry, options] = entryAndMarks(call.rawBody, call.body.marks);
        return recorded(resultOf(asPromised(await recordMemory(ledger, call.commandContext(call.params.subject), entry, options))));
      },
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/memories/{memoryId}/supersede',
      operationId: 'supersedeMemory',
      summary: 'Replace a memory with a newer entry (same key and scopes)',
      tag: 'memories',
      permission: 'memories:write',
      idempotent: true,
      params: memoryParams,
      body: recordBodySchema,
      responses: recordResponses,
      handler: async (call) => {
        const [entry, options] = entryAndMarks(call.rawBody, call.body.marks);
        const context = call.commandContext(call.params.subject);
        return recorded(resultOf(asPromised(await supersedeMemory(ledger, context, call.params.memoryId, entry, options))));
      },
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/memories/{memoryId}/retract',
      operationId: 'retractMemory',
      summary: 'Withdraw a memory (its source takes it back)',
      tag: 'memories',
      permission: 'memories:write',
      idempotent: true,
      params: memoryParams,
      body: z.strictObject({ reason: reasonSchema }),
      responses: { 200: { description: 'retracted', schema: lifecycleResultSchema } },
      handler: async (call) => ({
        status: 200,
        body: resultOf(await retractMemory(ledger, call.commandContext(call.params.subject), call.params.memoryId, call.body.reason)),
      }),
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/conflicts',
      operationId: 'listConflicts',
      summary: 'The open conflicts of a subject',
      tag: 'memories',
      permission: 'memories:read',
      params: subjectParams,
      responses: { 200: { description: 'open conflicts, oldest first', schema: z.array(openConflictSchema) } },
      handler: async (call) => {
        const loaded = await requireSubject(ledger, call.principal!.tenant, call.params.subject);
        return {
          status: 200,
          body: openConflicts(loaded.state).map((c) => ({
            conflictId: c.conflictId,
            key: c.key,
            scopes: c.scopes,
            memoryIds: [...c.memoryIds],
          })),
        };
      },
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/conflicts/{conflictId}/resolve',
      operationId: 'resolveConflict',
      summary: 'Settle a conflict: the winner stays, the others are superseded',
      tag: 'memories',
      permission: 'memories:write',
      idempotent: true,
      params: conflictParams,
      body: z.strictObject({ winner: memoryIdSchema, reason: reasonSchema.optional() }),
      responses: { 200: { description: 'resolved', schema: lifecycleResultSchema } },
      handler: async (call) => ({
        status: 200,
        body: resultOf(
          await resolveConflict(
            ledger,
            call.commandContext(call.params.subject),
            call.params.conflictId,
            call.body.winner,
            call.body.reason,
          ),
        ),
      }),
    }),
  ];
}
