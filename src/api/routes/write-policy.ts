// The tenant's write policy (issue 17): GET and POST /v1/policy (tenant-policy.ts).
import { WritePolicies } from '../../commands/policy/write-policies.js';
import { writePolicySchema } from '../../domain/policy/index.js';
import type { RouteSpec } from '../route.js';
import type { ApiServices } from '../services.js';
import { tenantPolicyRoutes } from './tenant-policy.js';

export function writePolicyRoutes(services: ApiServices): RouteSpec[] {
  return tenantPolicyRoutes(services, {
    path: '/v1/policy',
    name: 'WritePolicy',
    summary: {
      show: "The tenant's current write policy (version 0: the built-in default)",
      set: 'Set the next version of the tenant write policy',
    },
    schema: writePolicySchema,
    open: (eventStore, clock) => new WritePolicies(eventStore, clock),
  });
}
