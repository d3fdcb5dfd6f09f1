// Promotion (issue 19 item 3): POST a private memory's promotion into a
// shared namespace. The key must reach both the source (the path's subject)
// and the target (`to`: a namespace out of reach answers 404 as a missing
// one). The copy is a candidate in the target (202) until a reviewer accepts
// it through /v1/subjects/{to}/candidates/{memoryId}/accept.
import { promoteMemory } from '../../commands/promotion/promote-memory.js';
import { promoteRequestSchema } from '../../domain/namespace/promotion-request.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { memoryParams, openObject } from '../schemas/common.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

export function promotionRoutes(services: ApiServices): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/memories/{memoryId}/promotions',
      operationId: 'promoteMemory',
      summary: "Propose a private memory to a team's or a project's namespace: a candidate there until a reviewer accepts it",
      tag: 'memories',
      permission: 'memories:write',
      idempotent: true,
      params: memoryParams,
      body: promoteRequestSchema.omit({ memoryId: true }),
      responses: {
        202: { description: 'a CANDIDATE in the target: its memory id, origin (from), gate audit and expiry', schema: openObject },
      },
      handler: async (call) => {
        call.requireAccess(call.body.to, 'to');
        const context = call.commandContext(call.params.subject);
        const request = { memoryId: call.params.memoryId, ...call.body };
        return { status: 202, body: resultOf(await promoteMemory(services.ledger, context, request)) };
      },
    }),
  ];
}
