// The feedback loop over HTTP (issue 18): feedback on a memory a recall
// served (a writer key: it moves ranking and may hold a memory for review),
// and an auditor's look at what a recall served.
import { z } from 'zod';
import { feedbackInputSchema, giveFeedback } from '../../commands/feedback/give-feedback.js';
import { recallIdSchema } from '../../domain/events/recall-events.js';
import { subjectIdSchema } from '../../domain/values/ids.js';
import { showRecall } from '../../queries/recalls/show-recall.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { subjectParams } from '../schemas/common.js';
import { lifecycleResultSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

const recallAudit = z.looseObject({
  recallId: z.string(),
  items: z.array(z.looseObject({ position: z.number(), memories: z.array(z.looseObject({ memoryId: z.string() })) })),
  parameters: z.looseObject({ query: z.looseObject({ state: z.string() }) }),
});

export function feedbackRoutes(services: ApiServices): RouteSpec[] {
  const { ledger, read } = services;
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/feedback',
      operationId: 'giveFeedback',
      summary: 'Feedback on a memory a recall served: used, ignored, corrected, confirmed or harmful (harmful holds it for review)',
      tag: 'memories',
      permission: 'memories:write',
      idempotent: true,
      params: subjectParams,
      body: feedbackInputSchema,
      responses: { 200: { description: 'recorded (MemoryFeedbackGiven)', schema: lifecycleResultSchema } },
      handler: async (call) => ({
        status: 200,
        body: resultOf(await giveFeedback(ledger, call.commandContext(call.params.subject), call.body)),
      }),
    }),
    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/recalls/{recallId}',
      operationId: 'showRecall',
      summary:
        'What a recall served: items by position with memory ids, versions, scores and reason codes, its parameters, the question if still readable',
      tag: 'audit',
      permission: 'audit:read',
      params: z.strictObject({ subject: subjectIdSchema, recallId: recallIdSchema }),
      responses: { 200: { description: 'the recorded recall', schema: recallAudit } },
      handler: async (call) => ({
        status: 200,
        body: await showRecall(read, { tenant: call.principal!.tenant, subject: call.params.subject, recallId: call.params.recallId }),
      }),
    }),
  ];
}
