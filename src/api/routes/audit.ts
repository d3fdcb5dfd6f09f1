// Auditor-only reads. The decoded subject stream, personal fields opened
// where their keys still exist and marked forgotten where they do not.
import { z } from 'zod';
import { readSubjectEvents } from '../../queries/subject-events.js';
import { problemError } from '../problem.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { subjectParams } from '../schemas/common.js';
import { decodedEventSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';

export function auditRoutes(services: ApiServices): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/events',
      operationId: 'subjectEvents',
      summary: 'The decoded subject stream (auditor)',
      tag: 'audit',
      permission: 'audit:read',
      params: subjectParams,
      responses: { 200: { description: 'every event of the subject stream, in order', schema: z.array(decodedEventSchema) } },
      handler: async (call) => {
        const ref = { tenant: call.principal!.tenant, subject: call.params.subject };
        const events = await readSubjectEvents(services.ledger.eventStore, services.ledger.keyStore, ref);
        if (events.length === 0)
          throw problemError(404, 'subject_not_found', `subject ${ref.subject} does not exist`, { field: 'subject' });
        return { status: 200, body: events };
      },
    }),
  ];
}
