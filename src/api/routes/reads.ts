// The read side over HTTP (DESIGN section 7): recall for agents (reader);
// as-of, replay and the STALE set for auditors. Projection-backed reads
// first wait until the projections hold every event committed before the
// request (read your own writes); replay reads the stream itself.
import { z } from 'zod';
import { instantSchema } from '../../domain/values/instant-schema.js';
import { asOf } from '../../queries/as-of.js';
import { answerRecall } from '../../queries/recall/recall.js';
import { recallAnswerJson } from '../../queries/recall/answer-json.js';
import { optionsFromText, recallOptionsSchema, requireRecallRequest } from '../../queries/recall/request.js';
import { replay } from '../../queries/replay/replay.js';
import { staleSet } from '../../queries/stale-set.js';
import { defineRoute, type RouteCall, type RouteSpec } from '../route.js';
import { subjectParams } from '../schemas/common.js';
import type { ApiServices } from '../services.js';
import { requireSubject, subjectsHead } from './subject-exists.js';

const SCOPE_PARAM = /^scope\.(.*)$/s;

/** What the OpenAPI document shows of GET recall's parameters: the recall options themselves (scope.K parameters are open-ended). */
const recallQueryDoc = recallOptionsSchema.omit({ scopes: true });

/** `?query=…&topK=5&scope.project=shop-a&shared=team:t-1,project:p` -> the recall options; the one schema judges them (an unknown parameter is named there). */
function optionsOfQueryString(query: Record<string, unknown>): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  const scopes: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(query)) {
    const m = SCOPE_PARAM.exec(name);
    if (m) scopes[m[1]!] = value;
    else if (name === 'shared') options[name] = [value].flat().flatMap((v) => (typeof v === 'string' ? v.split(',') : [v]));
    else options[name] = value;
  }
  return optionsFromText(Object.keys(scopes).length > 0 ? { ...options, scopes } : options);
}

const recallAnswerSchema = z.looseObject({
  recallId: z.string(),
  source: z.enum(['summary', 'raw']),
  reason: z.string(),
  retrieval: z.looseObject({ topK: z.number(), hits: z.number() }).nullable(),
  items: z.array(z.unknown()),
  budget: z.looseObject({ used: z.number() }),
});

const beliefAnswer = z.looseObject({
  tenant: z.string(),
  subject: z.string(),
  systemTime: z.string(),
  validTime: z.string(),
  from: z.enum(['memory_versions', 'event_stream']),
  beliefs: z.array(z.looseObject({ memoryId: z.string() })),
});
export const asOfQuery = z.strictObject({ systemTime: instantSchema, validTime: instantSchema.optional() });
export const replayQuery = z.strictObject({ at: instantSchema, validTime: instantSchema.optional() });

const RECALL_DESCRIPTION =
  'Hard filters first (scopes, sensitivity ceiling, `purpose` (an entry that lists purposes is served only for one of them: `excluded.purpose`), valid now, not expired, superseded, retracted or forgotten); then the published summary only if it is current and not STALE, otherwise raw entries (`source` and `reason` say which and why). Scopes as `scope.<name>=<value>` parameters (GET) or a `scopes` object (POST). With `query`: items in relevance order, at most `topK` (1..200, default 20), then the budget; each item carries `retrieval: {score, rank, reasons}`; the `retrieval.semantic` of the answer says whether the semantic signal was used (`off`, `ready` with the model, or `failed` with a code: lexical only); `key` (a key or a pattern such as `notification.*`), `kind` and `minScore` apply only with a query. `shared` (comma-separated on GET) names shared namespaces (`team:<id>`, `project:<id>`) the key may read: their memories join the answer, each item carrying `namespace`; one the key may not read answers 404 as a missing subject.';

export function readRoutes(services: ApiServices): RouteSpec[] {
  const { ledger, read } = services;
  /** Parses the options once (the recall schema), checks the subject and each shared namespace asked for, reads your writes (of their streams), answers. */
  const recallRoute = async (call: RouteCall<{ subject: string }, unknown, unknown>, options: unknown) => {
    const { tenant } = call.principal!;
    const { subject } = call.params;
    const { actor } = call.commandContext(subject);
    const request = requireRecallRequest({ tenant, subject }, options);
    for (const namespace of request.shared) call.requireAccess(namespace, 'shared');
    await services.readYourWritesThrough(await subjectsHead(ledger, tenant, subject, request.shared));
    const answer = await answerRecall(read, request, actor);
    services.metrics.recallSource.inc({ source: answer.source, reason: answer.reason });
    return { status: 200, body: answer, json: recallAnswerJson(answer, answer.retrieval === null) };
  };
  return [
    defineRoute({
      method: 'GET',
      path: '/v1/subjects/{subject}/recall',
      operationId: 'recall',
      summary: 'What an agent may put in its context about a subject, within a token budget; with `query`, what answers a question',
      description: RECALL_DESCRIPTION,
      tag: 'reads',
      permission: 'memories:read',
      params: subjectParams,
      documentedQuery: recallQueryDoc,
      responses: { 200: { description: 'the recalled items, each with its provenance', schema: recallAnswerSchema } },
      handler: (call) => recallRoute(call, optionsOfQueryString(call.request.query as Record<string, unknown>)),
    }),

    defineRoute({
      method: 'POST',
      path: '/v1/subjects/{subject}/recall',
      operationId: 'recallPost',
      summary: 'Recall with the options as a JSON body (long queries): the same fields and answer as GET',
      description: RECALL_DESCRIPTION,
      tag: 'reads',
      permission: 'memories:read',
      params: subjectParams,
      documentedBodies: { 'application/json': recallOptionsSchema },
      responses: { 200: { description: 'the recalled items, each with its provenance', schema: recallAnswerSchema } },
      handler: (call) => recallRoute(call, call.rawBody ?? {}),
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
