// One route of the API, declared once: method, path, who may call it, zod
// schemas of its parameters, query, body and responses, and the handler.
// The same declaration registers the fastify route (auth, then validation
// with field-naming errors, then the handler, then response validation) and
// feeds the OpenAPI document (openapi.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { uuidV5 } from '../commands/ids/command-ids.js';
import type { CommandContext } from '../commands/ledger.js';
import { parseWith } from '../domain/validation/invalid-input.js';
import type { ApiPrincipal } from '../infrastructure/api-keys/api-key-store.js';
import type { BearerAuth } from './auth/bearer.js';
import { credentialOf } from './auth/credential.js';
import { mayDo, rolesWith, type Permission } from './auth/permissions.js';
import { enforceAccess, requireDeclaredAccess, requireSubjectAccess, type RouteAccess } from './auth/route-access.js';
import { problemError } from './problem.js';

export type HttpMethod = 'GET' | 'POST' | 'DELETE';

export interface ResponseSpec {
  readonly description: string;
  readonly schema?: z.ZodType;
  /** Default application/json. */
  readonly contentType?: string;
}

export interface RouteCall<P, Q, B> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** The body as it arrived (commands validate their own input again, from the raw value). */
  readonly rawBody: unknown;
  /** Present on every route that needs a key. */
  readonly principal: ApiPrincipal | undefined;
  /** The raw Idempotency-Key header, validated. */
  readonly idempotencyKey: string | undefined;
  readonly requestId: string;
  /** Throws the 404 of a subject the key may not reach: for subjects read beyond the path's (auth/route-access.ts). */
  requireAccess(subject: string, field: string): void;
  /** The command context for one subject: the tenant from the key, the idempotency key scoped to tenant, subject and operation. */
  commandContext(subject: string): CommandContext;
  readonly request: FastifyRequest;
}

export interface RouteReply {
  readonly status: number;
  readonly body?: unknown;
  /** The body's JSON when the handler has it already (the very text JSON.stringify(body) writes, in UTF-8); the body is still checked. */
  readonly json?: Buffer;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RouteSpec<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType> {
  readonly method: HttpMethod;
  /** OpenAPI form: `/v1/subjects/{subject}/memories:import`. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  /** Absent: a public route (health, metrics, the OpenAPI document). */
  readonly permission?: Permission;
  /** Where a keyed route acts (auth/route-access.ts): absent = the `{subject}` of its path. */
  readonly access?: RouteAccess<z.output<P>>;
  /** Takes an Idempotency-Key header. */
  readonly idempotent?: boolean;
  readonly params?: P;
  readonly query?: Q;
  /** Query parameters the handler parses itself (documented, not validated here). */
  readonly documentedQuery?: z.ZodType;
  readonly body?: B;
  /** Bodies the handler parses itself, by media type (documented, not validated here). */
  readonly documentedBodies?: Readonly<Record<string, z.ZodType>>;
  /** Largest body in bytes (default: the server's, 1 MiB). */
  readonly bodyLimit?: number;
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  readonly handler: (call: RouteCall<z.output<P>, z.output<Q>, z.output<B>>) => Promise<RouteReply>;
}

/** Keeps the schemas' types flowing into the handler. */
export function defineRoute<P extends z.ZodType = z.ZodType, Q extends z.ZodType = z.ZodType, B extends z.ZodType = z.ZodType>(
  spec: RouteSpec<P, Q, B>,
): RouteSpec {
  return spec;
}

/** What fastify writes for a body it serializes itself. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** `{x}` path parameters to fastify's `:x`; a literal colon (`memories:import`) is written `::` there. */
export function fastifyPath(path: string): string {
  return path.replace(/:/g, '::').replace(/\{([A-Za-z]+)\}/g, ':$1');
}

export function requestIdOf(request: { readonly headers: Record<string, string | string[] | undefined> }): string {
  const given = request.headers['x-request-id'];
  return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
}

export interface RouteDeps {
  readonly auth: BearerAuth;
  readonly onInvalidResponse: (route: RouteSpec, error: z.ZodError) => void;
}

export function registerRoute(app: FastifyInstance, spec: RouteSpec, deps: RouteDeps): void {
  if (spec.permission !== undefined) requireDeclaredAccess(spec);
  app.route({
    method: spec.method,
    url: fastifyPath(spec.path),
    ...(spec.bodyLimit !== undefined ? { bodyLimit: spec.bodyLimit } : {}),
    handler: async (request: FastifyRequest, reply: FastifyReply) => {
      const principal = spec.permission === undefined ? undefined : await authorize(deps.auth, request, spec.permission);
      // A route without a body ignores one (clients often send {}); one with a body takes only its media types.
      if (request.body !== undefined && (spec.body || spec.documentedBodies)) requireMediaType(spec, request);
      const params = validate(spec.params, request.params);
      // Where the key may act is settled before anything else is read (a subject out of reach is a 404).
      if (principal) await enforceAccess(spec, principal, params);
      const query = validate(spec.query, request.query);
      const idempotencyKey = spec.idempotent ? idempotencyKeyOf(request) : undefined;
      const body = spec.body === undefined ? undefined : validate(spec.body, request.body, 'body');
      const call: RouteCall<unknown, unknown, unknown> = {
        params,
        query,
        body,
        rawBody: request.body,
        principal,
        idempotencyKey,
        requestId: String(request.id),
        request,
        requireAccess: (subject, field) => {
          if (principal) requireSubjectAccess(principal, subject, field);
        },
        commandContext: (subject) => commandContextOf(spec, principal, subject, idempotencyKey, String(request.id)),
      };
      const answer = await spec.handler(call);
      const response = spec.responses[answer.status];
      if (!response) throw new Error(`${spec.operationId} answered ${answer.status}, which its declaration does not list`);
      if (response.schema) {
        const checked = response.schema.safeParse(answer.body);
        if (!checked.success) {
          deps.onInvalidResponse(spec, checked.error);
          throw new Error(`${spec.operationId}: the response does not match its schema`);
        }
      }
      for (const [name, value] of Object.entries(answer.headers ?? {})) reply.header(name, value);
      reply.code(answer.status);
      if (answer.json !== undefined) return reply.type(response.contentType ?? JSON_CONTENT_TYPE).send(answer.json);
      if (response.contentType) reply.type(response.contentType);
      return answer.body === undefined ? reply.send() : reply.send(answer.body);
    },
  });
}

async function authorize(auth: BearerAuth, request: FastifyRequest, permission: Permission): Promise<ApiPrincipal> {
  const principal = await auth.principalOf(request.headers.authorization);
  if (!mayDo(principal.role, permission)) {
    throw problemError(403, 'forbidden', `a ${principal.role} key may not do this (needs one of: ${rolesWith(permission).join(', ')})`, {
      field: 'Authorization',
    });
  }
  return principal;
}

/** A body in a media type the route does not take (fastify parses JSON, our ndjson) is 415, not a confusing 400. */
function requireMediaType(spec: RouteSpec, request: FastifyRequest): void {
  const allowed = [...(spec.body ? ['application/json'] : []), ...Object.keys(spec.documentedBodies ?? {})];
  const given = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (!allowed.includes(given)) {
    throw problemError(415, 'unsupported_media_type', `the body must be ${allowed.join(' or ')}`, { field: 'Content-Type' });
  }
}

function validate(schema: z.ZodType | undefined, value: unknown, whole = 'input'): unknown {
  if (schema === undefined) return undefined;
  const parsed = parseWith(schema, value);
  if (parsed.ok) return parsed.value;
  if (parsed.error.field === '') throw problemError(400, 'invalid_input', `${whole}: ${parsed.error.reason}`, { field: whole });
  throw parsed.error;
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY.test(value)) {
    throw problemError(400, 'invalid_input', 'Idempotency-Key: must be 1-255 visible ASCII characters, given once', {
      field: 'Idempotency-Key',
    });
  }
  return value;
}

/**
 * Event ids derive from the idempotency key and are unique across the whole
 * store, so a client's key is scoped before it reaches a command: the same key
 * from two tenants, for two subjects or for two operations are different
 * commands; the same key for the same operation is a retry.
 */
export function scopedIdempotencyKey(tenant: string, subject: string, operation: string, key: string): string {
  return `api-${uuidV5(`${tenant}\n${subject}\n${operation}\n${key}`)}`;
}

function commandContextOf(
  spec: RouteSpec,
  principal: ApiPrincipal | undefined,
  subject: string,
  key: string | undefined,
  requestId: string,
): CommandContext {
  if (!principal) throw new Error(`${spec.operationId} is public: it has no tenant`);
  return {
    tenant: principal.tenant,
    subject,
    ...(key !== undefined
      ? {
          idempotencyKey: scopedIdempotencyKey(principal.tenant, subject, spec.operationId, key),
          givenKey: { value: key, field: 'Idempotency-Key' },
        }
      : {}),
    actor: `api-key:${principal.keyId}`,
    correlationId: requestId,
    credential: credentialOf(principal),
  };
}
