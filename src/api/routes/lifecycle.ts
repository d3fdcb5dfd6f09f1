// The memory lifecycle over HTTP (issue 18 item 3): the tenant's versioned
// lifecycle policy (read: auditor, admin; set: admin), a sweep run by hand
// (admin; the service also sweeps on its interval) at the clock or at a
// given instant, and restoring a demoted memory (reviewer, admin). The
// tenant is always the key's.
import { z } from 'zod';
import { restoreMemory } from '../../commands/lifecycle.js';
import { LifecyclePolicies } from '../../commands/memory-lifecycle/lifecycle-policies.js';
import { sweepLifecycle } from '../../commands/memory-lifecycle/sweep.js';
import { lifecyclePolicySchema } from '../../domain/lifecycle/policy.js';
import { subjectIdSchema } from '../../domain/values/ids.js';
import { instantSchema } from '../../domain/values/instant-schema.js';
import { clearTextSchema } from '../../domain/events/fields.js';
import { subjectsInLog } from '../../reads/streams/subjects-in-log.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { memoryParams } from '../schemas/common.js';
import { lifecycleResultSchema } from '../schemas/results.js';
import type { ApiServices } from '../services.js';
import { resultOf } from './outcome.js';
import { tenantPolicyRoutes } from './tenant-policy.js';

const changed = z.array(z.object({ memoryId: z.string(), reason: z.string(), rule: z.string() }));
const sweepSchema = z.object({
  subjects: z.array(
    z.object({ tenant: z.string(), subject: z.string(), policyVersion: z.number().int(), demoted: changed, archived: changed }),
  ),
});

export function lifecycleRoutes(services: ApiServices): RouteSpec[] {
  // Made on the first call: the routes are also listed without services (the OpenAPI document).
  let made: LifecyclePolicies | undefined;
  const policies = () => (made ??= new LifecyclePolicies(services.ledger.eventStore, services.ledger.clock));
  return [
    ...tenantPolicyRoutes(services, {
      path: '/v1/lifecycle/policy',
      name: 'LifecyclePolicy',
      summary: {
        show: "The tenant's lifecycle policy in force: half-lives, demotion rules, capacities (version 0: the built-in default)",
        set: 'Set the next version of the tenant lifecycle policy',
      },
      schema: lifecyclePolicySchema,
      // The sweep below reads the same store (one fold of the policy stream).
      open: () => policies(),
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/lifecycle/sweep',
      access: 'tenant',
      operationId: 'sweepLifecycle',
      summary: "Demote and archive by the tenant's lifecycle policy, once (the service also sweeps by itself)",
      tag: 'policy',
      permission: 'policy:write',
      body: z.strictObject({ subject: subjectIdSchema.optional(), at: instantSchema.optional() }).optional(),
      responses: { 200: { description: 'the subjects where something was demoted or archived', schema: sweepSchema } },
      handler: async (call) => {
        const tenant = call.principal!.tenant;
        const { ledger } = services;
        const subject = call.body?.subject;
        if (subject === undefined) await ledger.eventStore.awaitCommitted();
        const subjects = subject !== undefined ? [{ tenant, subject }] : await subjectsInLog(ledger.eventStore, tenant);
        return { status: 200, body: { subjects: await sweepLifecycle(ledger, policies(), subjects, call.body?.at) } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/memories/{memoryId}/restore',
      operationId: 'restoreMemory',
      summary: 'Bring a demoted memory back (MemoryRestored)',
      tag: 'memories',
      permission: 'candidates:review',
      idempotent: true,
      params: memoryParams,
      body: z.strictObject({ note: clearTextSchema.optional() }).optional(),
      responses: { 200: { description: 'restored', schema: lifecycleResultSchema } },
      handler: async (call) => ({
        status: 200,
        body: resultOf(
          await restoreMemory(services.ledger, call.commandContext(call.params.subject), call.params.memoryId, call.body?.note),
        ),
      }),
    }),
  ];
}
