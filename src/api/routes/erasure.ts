// Forgetting (crypto-shredding, DESIGN section 8): one memory (writer) or a
// whole subject (admin). The answer is the deletion receipt.
import { z } from 'zod';
import { forgetMemory, forgetSubject } from '../../commands/forget.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { memoryParams, reasonSchema, subjectParams } from '../schemas/common.js';
import { deletionReceiptSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

const reasonQuery = z.strictObject({ reason: reasonSchema.optional() });

export function erasureRoutes(services: ApiServices): RouteSpec[] {
  const { ledger } = services;
  return [
    defineRoute({
      method: 'DELETE',
      path: '/v1/subjects/{subject}/memories/{memoryId}',
      operationId: 'forgetMemory',
      summary: "Erase one memory: its key is destroyed, a tombstone and a deletion receipt appended",
      tag: 'erasure',
      permission: 'memories:write',
      idempotent: true,
      params: memoryParams,
      query: reasonQuery,
      responses: { 200: { description: 'the deletion receipt', schema: deletionReceiptSchema } },
      handler: async (call) => ({ status: 200, body: resultOf(await forgetMemory(ledger, call.commandContext(call.params.subject), call.params.memoryId, call.query.reason)) }),
    }),

    defineRoute({
      method: 'DELETE',
      path: '/v1/subjects/{subject}',
      operationId: 'forgetSubject',
      summary: 'Erase a whole subject: its keys are destroyed; nothing more is recorded for it',
      tag: 'erasure',
      permission: 'subjects:forget',
      idempotent: true,
      params: subjectParams,
      query: reasonQuery,
      responses: { 200: { description: 'the deletion receipt', schema: deletionReceiptSchema } },
      handler: async (call) => ({ status: 200, body: resultOf(await forgetSubject(ledger, call.commandContext(call.params.subject), call.query.reason)) }),
    }),
  ];
}
