// GET and POST of a tenant's versioned policy document (the write policy,
// the lifecycle policy): read it (auditor, admin) and set the next version
// (admin). The tenant is the key's; the body is the document the CLI's
// `set --file` takes (POST: the API has no PUT), validated by the policy's schema.
import { z } from 'zod';
import type { TenantPolicies } from '../../commands/policy/tenant-policies.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { defineRoute, type RouteSpec } from '../route.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';

const viewSchema = z.object({
  tenant: z.string(),
  version: z.number().int(),
  builtIn: z.boolean(),
  policy: z.record(z.string(), z.unknown()),
});

export interface TenantPolicyRoutes {
  readonly path: string;
  /** The operation ids' noun: showWritePolicy, setWritePolicy. */
  readonly name: string;
  readonly summary: { readonly show: string; readonly set: string };
  readonly schema: z.ZodType;
  readonly open: (eventStore: EventStore, clock: () => Date) => TenantPolicies<unknown>;
}

export function tenantPolicyRoutes(services: ApiServices, spec: TenantPolicyRoutes): RouteSpec[] {
  // Made on the first call: the routes are also listed without services (the OpenAPI document).
  let made: TenantPolicies<unknown> | undefined;
  const policies = () => (made ??= spec.open(services.ledger.eventStore, services.ledger.clock));
  return [
    defineRoute({
      method: 'GET',
      path: spec.path,
      operationId: `show${spec.name}`,
      summary: spec.summary.show,
      tag: 'policy',
      permission: 'audit:read',
      access: 'tenant',
      responses: { 200: { description: 'the current version and document', schema: viewSchema } },
      handler: async (call) => ({ status: 200, body: await policies().show(call.principal!.tenant) }),
    }),
    defineRoute({
      method: 'POST',
      path: spec.path,
      operationId: `set${spec.name}`,
      summary: spec.summary.set,
      tag: 'policy',
      permission: 'policy:write',
      access: 'tenant',
      body: spec.schema,
      responses: { 200: { description: 'the version now in force', schema: viewSchema } },
      handler: async (call) => ({
        status: 200,
        body: resultOf(await policies().set(call.principal!.tenant, call.rawBody, `api-key:${call.principal!.keyId}`)),
      }),
    }),
  ];
}
