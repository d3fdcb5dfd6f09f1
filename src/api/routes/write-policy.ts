// The tenant's write policy (issue 17): read it (auditor, admin) and set the
// next version (admin). The tenant is the key's; the body is the document
// `memledger policy set --file` takes (POST: the API has no PUT), validated by writePolicySchema.
import { z } from 'zod';
import { WritePolicies } from '../../commands/policy/write-policies.js';
import { writePolicySchema } from '../../domain/policy/index.js';
import { defineRoute, type RouteSpec } from '../route.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

const viewSchema = z.object({
  tenant: z.string(),
  version: z.number().int(),
  builtIn: z.boolean(),
  policy: z.record(z.string(), z.unknown()),
});

export function writePolicyRoutes(services: ApiServices): RouteSpec[] {
  // Made on the first call: the routes are also listed without services (the OpenAPI document).
  let made: WritePolicies | undefined;
  const policies = () => (made ??= new WritePolicies(services.ledger.eventStore, services.ledger.clock));
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/policy',
      operationId: 'showWritePolicy',
      summary: "The tenant's current write policy (version 0: the built-in default)",
      tag: 'policy',
      permission: 'audit:read',
      access: 'tenant',
      responses: { 200: { description: 'the current version and document', schema: viewSchema } },
      handler: async (call) => ({ status: 200, body: await policies().show(call.principal!.tenant) }),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/policy',
      operationId: 'setWritePolicy',
      summary: 'Set the next version of the tenant write policy',
      tag: 'policy',
      permission: 'policy:write',
      access: 'tenant',
      body: writePolicySchema,
      responses: { 200: { description: 'the version now in force', schema: viewSchema } },
      handler: async (call) => ({
        status: 200,
        body: resultOf(await policies().set(call.principal!.tenant, call.rawBody, `api-key:${call.principal!.keyId}`)),
      }),
    }),
  ];
}
