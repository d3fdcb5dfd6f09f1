// The re-index door over HTTP (issue 16, admin): compute the embedding
// vectors of the configured model that a subject's — or every subject of the
// key's tenant — active memories lack (src/commands/retrieval/reindex.ts).
// The tenant comes from the key; the request has no body.
import { z } from 'zod';
import { reindexTenant } from '../../commands/retrieval/reindex.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { subjectParams } from '../schemas/common.js';
import type { ApiServices } from '../services.js';

const counts = { embedded: z.number().int(), failed: z.number().int(), skipped: z.number().int(), upToDate: z.number().int() };
const reindexReportSchema = z.object({
  tenant: z.string(),
  model: z.string().nullable(),
  subjects: z.array(z.object({ subject: z.string(), ...counts, failure: z.object({ code: z.string(), message: z.string() }).optional() })),
  forgotten: z.number().int(),
  totals: z.object(counts),
});
const responses = {
  200: {
    description: 'what was embedded, by subject (model null: no embedding endpoint is configured, nothing was done)',
    schema: reindexReportSchema,
  },
};

export function vectorRoutes(services: ApiServices): RouteSpec[] {
  return [
    defineRoute({
      method: 'POST',
      path: '/v1/vectors:reindex',
      operationId: 'reindexTenantVectors',
      summary: "Compute the embedding vectors of the configured model that the tenant's subjects' active memories lack",
      tag: 'retrieval',
      permission: 'retrieval:reindex',
      access: 'tenant',
      responses,
      handler: async (call) => ({ status: 200, body: await reindexTenant(services.ledger, { tenant: call.commandContext('*').tenant }) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/vectors:reindex',
      operationId: 'reindexSubjectVectors',
      summary: "Compute the embedding vectors of the configured model that the subject's active memories lack",
      tag: 'retrieval',
      permission: 'retrieval:reindex',
      params: subjectParams,
      responses,
      handler: async (call) => ({
        status: 200,
        body: await reindexTenant(services.ledger, {
          tenant: call.commandContext(call.params.subject).tenant,
          subject: call.params.subject,
        }),
      }),
    }),
  ];
}
