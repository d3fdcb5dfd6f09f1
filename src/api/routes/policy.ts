// A subject's source policy and the TTL sweep, as the CLI's trust, taint and
// expire: trust and taint change what may be believed (admin); an expire
// sweep only applies what the entries already say (writer), and may not be
// run for a time in the future.
import { z } from 'zod';
import { changeTrust, escalateTaintPolicy, expireMemories } from '../../commands/lifecycle.js';
import { sourceRefSchema, sourceTypeSchema, trustLevelSchema } from '../../domain/entry/source.js';
import { refPatternSchema } from '../../domain/events/subject-events.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { instantSchema } from '../../domain/values/instant-schema.js';
import { instantOf } from '../../domain/values/instant.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { reasonSchema, subjectParams } from '../schemas/common.js';
import { lifecycleResultSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

export function policyRoutes(services: ApiServices): RouteSpec[] {
  const { ledger } = services;
  const lifecycle = { 200: { description: 'what was appended', schema: lifecycleResultSchema } };
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/trust',
      operationId: 'changeTrust',
      summary: "Change a source's trust level",
      tag: 'policy',
      permission: 'policy:write',
      idempotent: true,
      params: subjectParams,
      body: z.strictObject({ sourceRef: sourceRefSchema, level: trustLevelSchema, reason: reasonSchema.optional() }),
      responses: lifecycle,
      handler: async (call) => ({
        status: 200,
        body: resultOf(
          await changeTrust(ledger, call.commandContext(call.params.subject), call.body.sourceRef, call.body.level, call.body.reason),
        ),
      }),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/taint',
      operationId: 'escalateTaintPolicy',
      summary: 'Escalate the taint policy: matching sources taint what derives from them',
      tag: 'policy',
      permission: 'policy:write',
      idempotent: true,
      params: subjectParams,
      body: z.strictObject({
        refPatterns: z.array(refPatternSchema).max(256).default([]),
        sourceTypes: z.array(sourceTypeSchema).max(16).default([]),
        reason: reasonSchema,
      }),
      responses: lifecycle,
      handler: async (call) => ({
        status: 200,
        body: resultOf(
          await escalateTaintPolicy(ledger, call.commandContext(call.params.subject), {
            refPatterns: call.body.refPatterns,
            sourceTypes: call.body.sourceTypes,
            reason: call.body.reason,
          }),
        ),
      }),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/expire',
      operationId: 'expireMemories',
      summary: 'The TTL sweep for one subject, once (the service also sweeps by itself)',
      tag: 'policy',
      permission: 'memories:write',
      idempotent: true,
      params: subjectParams,
      body: z.strictObject({ now: instantSchema.optional() }).optional(),
      responses: lifecycle,
      handler: async (call) => {
        const now = call.body?.now;
        if (now !== undefined && now > instantOf(ledger.clock())) throw new InvalidInput('now', 'must not be in the future');
        return { status: 200, body: resultOf(await expireMemories(ledger, call.commandContext(call.params.subject), now)) };
      },
    }),
  ];
}
