// The read side over HTTP (DESIGN section 7): recall for agents (reader);
// as-of, replay and the STALE set for auditors. Projection-backed reads
// first wait until the projections hold every event committed before the
// request (read your own writes); replay reads the stream itself.
import { z } from 'zod';
import { sensitivitySchema } from '../../domain/entry/vocabulary.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { instantSchema } from '../../domain/values/instant-schema.js';
import { asOf } from '../../queries/as-of.js';
import { recall } from '../../queries/recall/recall.js';
import { MAX_BUDGET } from '../../queries/recall/request.js';
import { replay } from '../../queries/replay/replay.js';
import { staleSet } from '../../queries/stale-set.js';
import { defineRoute, type RouteSpec } from '../route.js';
import { queryWholeNumber, subjectParams } from '../schemas/common.js';
import type { ApiServices } from '../services.js';
import { requireSubject } from './subject-exists.js';

const SCOPE_PARAM = /^scope\.([A-Za-z][A-Za-z0-9_-]{0,63})$/;

const recallQuery = z.looseObject({
  budget: queryWholeNumber(1, MAX_BUDGET).optional(),
  maxSensitivity: sensitivitySchema.optional(),
  now: instantSchema.optional(),
});
/** What the OpenAPI document shows (scope.K parameters are open-ended). */
const recallQueryDoc = z.strictObject({
  budget: recallQuery.shape.budget,
  maxSensitivity: recallQuery.shape.maxSensitivity,
  now: recallQuery.shape.now,
});

/** `scope.project=shop-a&scope.thread=t9` -> { project: 'shop-a', thread: 't9' }; any other unknown parameter is an error. */
function scopesOf(query: Record<string, unknown>): Record<string, string> {
  const scopes: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (name in recallQueryDoc.shape) continue;
    const m = SCOPE_PARAM.exec(name);
    if (!m) throw new InvalidInput(name, 'is not a known parameter (budget, maxSensitivity, now, scope.<name>)');
    if (typeof value !== 'string') throw new InvalidInput(name, 'must be given once');
    scopes[m[1]!] = value;
  }
  return scopes;
}

const beliefAnswer = z.looseObject({
  tenant: z.string(),
  subject: z.string(),
  systemTime: z.string(),
  validTime: z.string(),
  from: z.enum(['memory_versions', 'event_stream']),
  beliefs: z.array(z.looseObject({ memoryId: z.string() })),
});
const asOfQuery = z.strictObject({ systemTime: instantSchema, validTime: instantSchema.optional() });
const replayQuery = z.strictObject({ at: instantSchema, validTime: instantSchema.optional() });

export function readRoutes(services: ApiServices): RouteSpec[] {
  const { ledger, read } = services;
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/recall',
      operationId: 'recall',
      summary: 'What an agent may put in its context about a subject, within a token budget',
      description:
        'Hard filters first (scopes, sensitivity ceiling, valid now, not expired, superseded, retracted or forgotten); then the published summary only if it is current and not STALE, otherwise raw entries (`source` and `reason` say which and why). Scopes as `scope.<name>=<value>` parameters, e.g. `scope.project=shop-a`.',
      tag: 'reads',
      permission: 'memories:read',
      params: subjectParams,
      query: recallQuery,
      responses: {
        200: {
          description: 'the recalled items, each with its provenance',
          schema: z.looseObject({
            source: z.enum(['summary', 'raw']),
            reason: z.string(),
            items: z.array(z.unknown()),
            budget: z.looseObject({ used: z.number() }),
          }),
        },
      },
      handler: async (call) => {
        const tenant = call.principal!.tenant;
        const scopes = scopesOf(call.query as Record<string, unknown>);
        await requireSubject(ledger, tenant, call.params.subject);
        await services.readYourWrites();
        const answer = await recall(read, {
          tenant,
          subject: call.params.subject,
          scopes,
          ...(call.query.budget !== undefined ? { budget: call.query.budget } : {}),
          ...(call.query.maxSensitivity !== undefined ? { maxSensitivity: call.query.maxSensitivity } : {}),
          ...(call.query.now !== undefined ? { now: call.query.now } : {}),
        });
        services.metrics.recallSource.inc({ source: answer.source, reason: answer.reason });
        return { status: 200, body: answer };
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/as-of',
      operationId: 'asOf',
      summary: 'What the system believed at system time T about business time V (auditor)',
      tag: 'audit',
      permission: 'audit:read',
      params: subjectParams,
      query: asOfQuery,
      responses: { 200: { description: 'the beliefs, from memory_versions', schema: beliefAnswer } },
      handler: async (call) => {
        const tenant = call.principal!.tenant;
        await requireSubject(ledger, tenant, call.params.subject);
        await services.readYourWrites();
        const q = call.query;
        return {
          status: 200,
          body: await asOf(read, {
            tenant,
            subject: call.params.subject,
            systemTime: q.systemTime,
            ...(q.validTime !== undefined ? { validTime: q.validTime } : {}),
          }),
        };
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/replay',
      operationId: 'replay',
      summary: 'The same belief as as-of, reconstructed from the event stream alone (auditor)',
      tag: 'audit',
      permission: 'audit:read',
      params: subjectParams,
      query: replayQuery,
      responses: { 200: { description: 'the beliefs, from the event stream', schema: beliefAnswer } },
      handler: async (call) => {
        const tenant = call.principal!.tenant;
        await requireSubject(ledger, tenant, call.params.subject);
        const q = call.query;
        return {
          status: 200,
          body: await replay(read, {
            tenant,
            subject: call.params.subject,
            systemTime: q.at,
            ...(q.validTime !== undefined ? { validTime: q.validTime } : {}),
          }),
        };
      },
    }),

    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/stale',
      operationId: 'staleSet',
      summary: "The subject's STALE artifacts and what made each STALE (auditor)",
      tag: 'audit',
      permission: 'audit:read',
      params: subjectParams,
      responses: {
        200: {
          description: 'the STALE set',
          schema: z.looseObject({
            alias: z.looseObject({ artifactId: z.string(), stale: z.boolean() }).nullable(),
            stale: z.array(z.looseObject({ artifactId: z.string() })),
          }),
        },
      },
      handler: async (call) => {
        const tenant = call.principal!.tenant;
        await requireSubject(ledger, tenant, call.params.subject);
        await services.readYourWrites();
        return { status: 200, body: await staleSet(read, tenant, call.params.subject) };
      },
    }),
  ];
}
