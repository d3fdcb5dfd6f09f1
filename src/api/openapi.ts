// The OpenAPI 3.1 document (GET /openapi.json), generated from the same route
// declarations and zod schemas the service validates with: request schemas as
// the client writes them (zod's input side), responses as the service sends them.
import { z } from 'zod';
import { rolesWith } from './auth/permissions.js';
import { PROBLEM_CONTENT_TYPE } from './problem.js';
import type { RouteSpec } from './route.js';
import { problemSchema } from './schemas/common.js';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  return rest;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: property,
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
  }));
}

const problemResponse = (description: string) => ({
  description,
  content: { [PROBLEM_CONTENT_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } },
});

function operation(spec: RouteSpec): JsonSchema {
  const roles = spec.permission ? rolesWith(spec.permission) : [];
  const parametersList = [...parameters(spec.params, 'path'), ...parameters(spec.query ?? spec.documentedQuery, 'query')];
  if (spec.idempotent) {
    parametersList.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Retrying with the same key (same tenant, subject and operation) appends nothing new and answers as the first time.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const bodies: Record<string, z.ZodType> = { ...(spec.body ? { 'application/json': spec.body } : {}), ...(spec.documentedBodies ?? {}) };
  const responses: Record<string, unknown> = {};
  for (const [status, response] of Object.entries(spec.responses)) {
    const type = response.contentType ?? 'application/json';
    responses[status] = {
      description: response.description,
      ...(response.schema ? { content: { [type]: { schema: jsonSchema(response.schema, 'output') } } } : {}),
    };
  }
  responses['400'] ??= problemResponse('bad input: `field` names the offending field; nothing was written');
  if (spec.permission) {
    responses['401'] = problemResponse('missing, malformed, unknown or revoked API key');
    responses['403'] = problemResponse(`the key's role may not do this (allowed: ${roles.join(', ')})`);
    responses['404'] ??= problemResponse("no such subject, memory, conflict or artifact in the key's tenant");
    responses['409'] ??= problemResponse("refused by the current state (the problem's `code` says why)");
  }
  responses['500'] = problemResponse('the service failed');
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    ...(spec.permission ? { security: [{ apiKey: [] }], 'x-memledger-roles': roles } : { security: [] }),
    ...(parametersList.length > 0 ? { parameters: parametersList } : {}),
    ...(Object.keys(bodies).length > 0
      ? {
          requestBody: {
            required: !(spec.body instanceof z.ZodOptional),
            content: Object.fromEntries(Object.entries(bodies).map(([type, schema]) => [type, { schema: jsonSchema(schema, 'input') }])),
          },
        }
      : {}),
    responses,
  };
}

export function openApiDocument(specs: readonly RouteSpec[], info: { readonly version: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const spec of specs) (paths[spec.path] ??= {})[spec.method.toLowerCase()] = operation(spec);
  return {
    openapi: '3.1.0',
    info: {
      title: 'memledger',
      version: info.version,
      description:
        'An event-sourced ledger for the long-term memory of AI agents. Every /v1 route needs `Authorization: Bearer <key>` ' +
        '(`memledger keys create --tenant T --role R`); the tenant always comes from the key. Errors are RFC 9457 problem details.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'An API key: mlk_<keyId>_<secret>' } },
      schemas: { Problem: jsonSchema(problemSchema, 'output') },
    },
  };
}
