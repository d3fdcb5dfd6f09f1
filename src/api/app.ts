// The HTTP API as a fastify instance (not listening): every route of
// DESIGN section 10 that exists, problem+json for every error, one log line
// per request, request metrics. The service (service/start-service.ts) adds
// the background work and listens.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { BearerAuth, type KeyLookup } from './auth/bearer.js';
import { OwnRequestKeys } from './auth/own-requests.js';
import { registerConsole } from './console/console-route.js';
import { httpApiErasureCheck } from './erasure/http-api-check.js';
import type { ErasureCheck } from '../reads/erasure/verification.js';
import { openApiDocument } from './openapi.js';
import { MAX_ID_LENGTH } from '../domain/values/ids.js';
import { InvalidInput } from '../domain/validation/invalid-input.js';
import { decodeUtf8, INVALID_UTF8_REASON } from '../domain/validation/well-formed.js';
import { DATABASE_UNAVAILABLE, problem, problemOf, PROBLEM_CONTENT_TYPE } from './problem.js';
import { registerMcp } from './mcp-route.js';
import { registerRoute, requestIdOf, type RouteSpec } from './route.js';
import { artifactRoutes } from './routes/artifacts.js';
import { auditRoutes } from './routes/audit.js';
import { consolidationRoutes } from './routes/consolidation.js';
import { erasureRoutes } from './routes/erasure.js';
import { importRoutes, NDJSON } from './routes/import.js';
import { memoryRoutes } from './routes/memories.js';
import { operationRoutes } from './routes/operations.js';
import { vectorRoutes } from './routes/vectors.js';
import { policyRoutes } from './routes/policy.js';
import { writePolicyRoutes } from './routes/write-policy.js';
import { lifecycleRoutes } from './routes/lifecycle.js';
import { feedbackRoutes } from './routes/feedback.js';
import { candidateRoutes } from './routes/candidates.js';
import { promotionRoutes } from './routes/promotion.js';
import { readRoutes } from './routes/reads.js';
import type { ApiServices } from './services.js';

export const API_VERSION = '1.0.0';

export interface ApiOptions {
  readonly keys: KeyLookup;
  /** How long a key lookup is trusted (revocation takes effect within it); 0 = every request asks the key table. */
  readonly keyCacheMs: number;
  readonly logger: Logger;
  /** The service's credentials for requests to itself (one is made when absent). */
  readonly ownKeys?: OwnRequestKeys;
  /** The built console's folder (default: the package's console/dist). */
  readonly consoleDir?: string;
}

/** Every route, in the order the OpenAPI document lists them. */
export function apiRoutes(services: ApiServices, openApi: () => unknown, apiErasureChecks: () => ErasureCheck[] = () => []): RouteSpec[] {
  return [
    ...memoryRoutes(services),
    ...importRoutes(services),
    ...readRoutes(services),
    ...erasureRoutes(services, apiErasureChecks),
    ...policyRoutes(services),
    ...writePolicyRoutes(services),
    ...lifecycleRoutes(services),
    ...candidateRoutes(services),
    ...promotionRoutes(services),
    ...feedbackRoutes(services),
    ...consolidationRoutes(services),
    ...artifactRoutes(services),
    ...auditRoutes(services),
    ...vectorRoutes(services),
    ...operationRoutes(services, openApi),
  ];
}

export function buildApi(services: ApiServices, options: ApiOptions): FastifyInstance {
  // Typed as fastify's logger, so that the instance is the plain FastifyInstance, not one specialised to pino's Logger.
  const logger: FastifyBaseLogger = options.logger;
  const app = Fastify({
    loggerInstance: logger,
    // One line per request, written by the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdOf,
    // Keep-alive connections that are idle when shutdown starts are closed; busy ones finish their request.
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    // Every valid id must reach its route: ids are up to 128 characters, each at most 3 when percent-encoded.
    routerOptions: { maxParamLength: MAX_ID_LENGTH * 3 },
    // Errors the router raises before any route runs: problem+json like the rest.
    frameworkErrors: (error, request, reply) => {
      const { problem: body } = problemOf(error);
      void (reply as FastifyReply)
        .code(body.status)
        .type(PROBLEM_CONTENT_TYPE)
        .send({ ...body, instance: request.url });
    },
  });
  // Bodies are JSON (and JSON lines for imports); fastify's plain-text parser would turn a wrong media type into a confusing 400.
  app.removeContentTypeParser('text/plain');
  // Bodies must be valid UTF-8: fastify would decode bad bytes to U+FFFD and store what the client never sent.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const text = decodeUtf8(body as Buffer);
    if (text === undefined) done(new InvalidInput('body', INVALID_UTF8_REASON), undefined);
    else void parseJson(request, text, done);
  });
  app.addContentTypeParser(NDJSON, { parseAs: 'buffer' }, (_request, body, done) => {
    const text = decodeUtf8(body as Buffer);
    if (text === undefined) done(new InvalidInput('body', INVALID_UTF8_REASON), undefined);
    else done(null, text);
  });

  const ownKeys = options.ownKeys ?? new OwnRequestKeys();
  // An erasure through the API is also checked against the API's own answers.
  const apiErasureChecks = () => [httpApiErasureCheck({ app, ownKeys, keyStore: services.read.keyStore, clock: services.ledger.clock })];
  // The OpenAPI route serves the document built from every route, itself included (read when asked, after this runs).
  const routes = apiRoutes(services, () => document, apiErasureChecks);
  const document = openApiDocument(routes, { version: API_VERSION });
  const auth = new BearerAuth(options.keys, options.keyCacheMs, Date.now, ownKeys);
  const onInvalidResponse = (route: RouteSpec, error: unknown) =>
    app.log.error({ operationId: route.operationId, issues: (error as { issues?: unknown }).issues }, 'response does not match its schema');
  for (const route of routes) registerRoute(app, route, { auth, onInvalidResponse });
  registerMcp(app, services, { auth, erasureChecks: apiErasureChecks });
  registerConsole(app, options.consoleDir);

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    services.metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    request.log.info(
      { method: request.method, url: request.url, route, status: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 },
      'request',
    );
  });

  app.setErrorHandler(async (error, request, reply) => {
    const { problem: body, unexpected } = problemOf(error);
    if (unexpected) request.log.error({ err: error }, 'request failed');
    if (body.status === 401) reply.header('www-authenticate', 'Bearer');
    if (body.code === DATABASE_UNAVAILABLE) reply.header('retry-after', '2');
    return reply
      .code(body.status)
      .type(PROBLEM_CONTENT_TYPE)
      .send({ ...body, instance: request.url });
  });
  app.setNotFoundHandler(async (request, reply) => {
    const body = problem(404, 'route_not_found', `no route ${request.method} ${request.url.split('?')[0]}`);
    return reply.code(404).type(PROBLEM_CONTENT_TYPE).send(body);
  });
  return app;
}
