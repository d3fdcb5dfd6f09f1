// Validation of what callers hand the event store, before any SQL runs: bad
// input gets a typed error naming the field, and nothing is written.
// Only depends on the port, so the EventStoreDB adapter can share it.
import { z } from 'zod';
import type { CountAllOptions, ExpectedRevision, NewEvent, Position, ReadAllOptions, ReadPageOptions, ReadStreamOptions } from '../port.js';

/** Bad input to the event store; `field` names the offending field (a path such as `events.2.id`). */
export class InvalidEventStoreInput extends Error {
  override readonly name = 'InvalidEventStoreInput';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

const revision = z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const streamName = z.string().min(1).max(1000);

const expectedRevisionSchema = z.union([z.enum(['any', 'no_stream', 'stream_exists']), revision]);

const metadataSchema = z.object({
  correlationId: z.string().optional(),
  causationId: z.string().optional(),
  actor: z.string().optional(),
  schemaVersion: z.number().int().nonnegative(),
});

/** Plain JSON only (what both stores keep exactly); a hand-written walk, as z.json() costs more than the append itself. */
function isJson(value: unknown): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object': {
      if (value === null) return true;
      if (Array.isArray(value)) return value.every(isJson);
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return false;
      for (const key in value) if (!isJson((value as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false;
  }
}

const newEventSchema = z.object({
  // Any 8-4-4-4-12 hex id (both stores accept it); stored lower-case.
  id: z.guid().transform((id) => id.toLowerCase()),
  type: z.string().min(1).max(1000),
  data: z.custom<unknown>(isJson, { message: 'must be JSON: plain objects, arrays, strings, finite numbers, booleans or null' }),
  metadata: metadataSchema,
});

const eventsSchema = z
  .array(newEventSchema)
  .min(1)
  .superRefine((events, ctx) => {
    const seen = new Set<string>();
    events.forEach((event, index) => {
      if (seen.has(event.id))
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: `event id ${event.id} appears twice in the batch` });
      seen.add(event.id);
    });
  });

const positionSchema = z.object({
  commit: z.bigint().nonnegative(),
  prepare: z.bigint().nonnegative(),
});

const prefixes = z.array(z.string().min(1)).optional();
const filterSchema = z.object({ streamPrefixes: prefixes, eventTypePrefixes: prefixes }).optional();
const maxCount = z.number().int().positive().optional();
// Built once: a zod schema made per call costs more to build and compile than the read it checks.
const readStreamSchema = z
  .object({ fromRevision: revision.optional(), direction: z.enum(['forwards', 'backwards']).optional(), maxCount })
  .optional();
const readAllShape = z.object({ after: positionSchema.optional(), maxCount, filter: filterSchema });
const readAllSchema = readAllShape.optional();
const readPageSchema = readAllShape.extend({ maxCount: z.number().int().positive() });
const countAllSchema = readAllShape
  .omit({ maxCount: true })
  .extend({ upTo: positionSchema.optional(), limit: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER) });
const subscribeAllSchema = z.object({ after: positionSchema.optional(), filter: filterSchema }).optional();

function parse<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = [field, ...issue.path.map(String)].filter((part) => part !== '').join('.');
  throw new InvalidEventStoreInput(path || 'options', issue.message);
}

export interface AppendInput {
  readonly stream: string;
  readonly events: readonly NewEvent[];
  readonly expectedRevision: ExpectedRevision;
}

export function parseAppend(stream: unknown, events: unknown, options: unknown): AppendInput {
  return {
    stream: parse(streamName, stream, 'stream'),
    events: parse(eventsSchema, events, 'events'),
    expectedRevision: parse(
      expectedRevisionSchema,
      (options as { expectedRevision?: unknown } | undefined)?.expectedRevision,
      'expectedRevision',
    ),
  };
}

export function parseReadStream(stream: unknown, options: unknown): { stream: string; options: ReadStreamOptions } {
  return { stream: parse(streamName, stream, 'stream'), options: parse(readStreamSchema, options, '') ?? {} };
}

export function parseReadAll(options: unknown): ReadAllOptions {
  return parse(readAllSchema, options, '') ?? {};
}

export function parseReadPage(options: unknown): ReadPageOptions {
  return parse(readPageSchema, options, '');
}

export function parseCountAll(options: unknown): CountAllOptions {
  return parse(countAllSchema, options, '');
}

export function parseSubscribeAll(options: unknown): { after?: Position; filter?: ReadAllOptions['filter'] } {
  return parse(subscribeAllSchema, options, '') ?? {};
}
