// What operators and orchestrators ask: liveness, readiness (projections
// caught up within a bound), Prometheus metrics and the OpenAPI document.
import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../route.js';
import type { ApiServices } from '../services.js';

const projectionHealth = z.object({
  projection: z.string(),
  schema: z.string().nullable(),
  checkpoint: z.string().nullable(),
  lagEvents: z.number().int(),
  lagIsLowerBound: z.boolean(),
  lagSeconds: z.number(),
  faults: z.number().int(),
  error: z.string().optional(),
});
const database = z.enum(['up', 'down']);
const readiness = z.object({ ready: z.boolean(), database, maxLagSeconds: z.number(), projections: z.array(projectionHealth) });

export function operationRoutes(services: ApiServices, openApi: () => unknown): RouteSpec[] {
  const started = Date.now();
  return [
    defineRoute({
      method: 'GET',
      path: '/healthz',
      operationId: 'health',
      summary: 'Liveness: the process serves requests (200 even while its database is down: restarting the process would not help)',
      tag: 'operations',
      responses: {
        200: {
          description: 'alive; pid: the process that answered (one of the workers of serve --workers N)',
          schema: z.object({ status: z.literal('ok'), database, pid: z.number().int(), uptimeSeconds: z.number() }),
        },
      },
      handler: () =>
        Promise.resolve({
          status: 200,
          body: {
            status: 'ok',
            database: services.health.database(),
            pid: process.pid,
            uptimeSeconds: Math.round((Date.now() - started) / 1000),
          },
        }),
    }),
    defineRoute({
      method: 'GET',
      path: '/readyz',
      operationId: 'readiness',
      summary: 'Readiness: the database answers, and every projection is built and no more than maxLagSeconds behind the log',
      tag: 'operations',
      responses: { 200: { description: 'ready', schema: readiness }, 503: { description: 'not ready (yet)', schema: readiness } },
      handler: async () => {
        const answer = await services.health.readiness();
        return { status: answer.ready ? 200 : 503, body: answer };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/metrics',
      operationId: 'metrics',
      summary: 'Prometheus metrics (text exposition format)',
      tag: 'operations',
      responses: { 200: { description: 'metrics', schema: z.string(), contentType: 'text/plain; version=0.0.4; charset=utf-8' } },
      handler: async () => {
        const { contentType, body } = await services.metrics.exposition();
        return { status: 200, body, headers: { 'content-type': contentType } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'openApi',
      summary: 'This API as an OpenAPI 3.1 document',
      tag: 'operations',
      responses: {
        200: { description: 'the document', schema: z.looseObject({ openapi: z.string(), paths: z.record(z.string(), z.unknown()) }) },
      },
      handler: () => Promise.resolve({ status: 200, body: openApi() }),
    }),
  ];
}
