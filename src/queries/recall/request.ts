// What a reader asks recall for, validated at the boundary with one schema
// (CLI flags, HTTP query string and JSON body, package call): whose memory,
// in which scopes, up to which sensitivity, within how many tokens, "now"
// for validity and expiry (default: the clock) and, optionally, a question
// (issue 16) with how many items, key and kind filters and a score floor.
// The retrieval fields are the domain's own (retrievalQuerySchema).
import { z } from 'zod';
import { normaliseScopes, scopesSchema, type Scopes } from '../../domain/entry/scopes.js';
import { sensitivitySchema, type Sensitivity } from '../../domain/entry/vocabulary.js';
import { purposeSchema } from '../../domain/entry/purposes.js';
import { DEFAULT_TOP_K, retrievalQuerySchema, type RetrievalQuery } from '../../domain/retrieval/index.js';
import { sharedNamespaceSchema } from '../../domain/namespace/promotion-request.js';
import { InvalidInput, invalidInputFromZod } from '../../domain/validation/invalid-input.js';
import { subjectIdSchema, tenantIdSchema } from '../../domain/values/ids.js';
import { instantSchema } from '../../domain/values/instant-schema.js';

/** Without a ceiling, confidential and restricted entries stay out of an agent's context. */
export const DEFAULT_SENSITIVITY_CEILING: Sensitivity = 'personal';

const question = retrievalQuerySchema.shape;
const MAX_SHARED = 16;

/** Everything a reader asks but whose memory it is: the one shape every boundary parses. */
export const recallOptionsSchema = z.strictObject({
  /** The reader's scopes: an entry applies when every scope it names has the reader's value. */
  scopes: scopesSchema.optional(),
  maxSensitivity: sensitivitySchema.optional(),
  /** What the answer is for: entries that list purposes are served only for one of them (excluded.purpose). */
  purpose: purposeSchema.optional(),
  /** Tokens (cl100k_base) the items may take; absent = no limit. */
  budget: question.budget,
  now: instantSchema.optional(),
  query: question.query.optional(),
  topK: question.topK.unwrap().optional(),
  key: question.key,
  kind: question.kind,
  minScore: question.minScore,
  /** Shared namespaces (team:…, project:…) whose memories join the subject's, each item saying where it came from (issue 19). */
  shared: z
    .array(sharedNamespaceSchema, { error: 'must be a list of shared namespaces' })
    .max(MAX_SHARED, { error: `must name at most ${MAX_SHARED} namespaces` })
    .optional(),
  /** Also serve memories the lifecycle demoted (issue 18); archived ones are never served. */
  includeDemoted: z.boolean({ error: 'must be true or false' }).optional(),
});

export const RETRIEVAL_ONLY_FIELDS = ['topK', 'key', 'kind', 'minScore'] as const;

export type RecallOptions = z.input<typeof recallOptionsSchema>;
export type RecallInput = RecallOptions & { readonly tenant: string; readonly subject: string };

export interface RecallRequest {
  readonly tenant: string;
  readonly subject: string;
  readonly scopes: Scopes;
  readonly maxSensitivity: Sensitivity;
  /** Absent: any purpose (entries with purposes are served too). */
  readonly purpose?: string;
  readonly budget: number | undefined;
  readonly now: string | undefined;
  /** Present when the reader asked a question: recall answers it in relevance order. */
  readonly retrieval: RetrievalQuery | undefined;
  /** Shared namespaces to read beside the subject (the caller checked that it may). */
  readonly shared: readonly string[];
  readonly includeDemoted: boolean;
}

const targetSchema = z.strictObject({ tenant: tenantIdSchema, subject: subjectIdSchema });

/** Whose memory (the tenant from a key or a flag, the subject from a path or a flag) and the reader's options, parsed once. */
export function requireRecallRequest(target: { tenant: unknown; subject: unknown }, options: unknown): RecallRequest {
  const who = targetSchema.safeParse(target);
  if (!who.success) throw invalidInputFromZod(who.error);
  const parsed = recallOptionsSchema.safeParse(options ?? {});
  if (!parsed.success) throw invalidInputFromZod(parsed.error);
  const { scopes, maxSensitivity, purpose, budget, now, query, topK, key, kind, minScore, shared, includeDemoted } = parsed.data;
  const filters = { topK, key, kind, minScore };
  if (query === undefined) {
    const given = RETRIEVAL_ONLY_FIELDS.find((f) => filters[f] !== undefined);
    if (given) throw new InvalidInput(given, 'applies only with a query (ask a question to rank, filter and cut by relevance)');
  }
  return {
    tenant: who.data.tenant,
    subject: who.data.subject,
    scopes: normaliseScopes(scopes),
    maxSensitivity: maxSensitivity ?? DEFAULT_SENSITIVITY_CEILING,
    ...(purpose !== undefined ? { purpose } : {}),
    budget,
    now,
    shared: [...new Set(shared ?? [])].filter((s) => s !== who.data.subject),
    includeDemoted: includeDemoted ?? false,
    retrieval:
      query === undefined
        ? undefined
        : {
            query,
            topK: topK ?? DEFAULT_TOP_K,
            ...(key !== undefined ? { key } : {}),
            ...(kind !== undefined ? { kind } : {}),
            ...(minScore !== undefined ? { minScore } : {}),
            ...(budget !== undefined ? { budget } : {}),
          },
  };
}

/** The package's single-object form: `recall(read, { tenant, subject, ...options })`. */
export function requireRecallInput(input: unknown): RecallRequest {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw new InvalidInput('', 'must be an object');
  const { tenant, subject, ...options } = input as Record<string, unknown>;
  return requireRecallRequest({ tenant, subject }, options);
}

const NUMERIC_FIELDS = ['budget', 'topK', 'minScore'] as const;
const NUMBER_TEXT = /^\s*-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?\s*$/i;

/** Options given as text (CLI flags, an HTTP query string) in the schema's types: a number that reads as one; anything else is left for the schema to name. */
export function optionsFromText(options: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...options };
  for (const field of NUMERIC_FIELDS) {
    const text = out[field];
    if (typeof text === 'string' && NUMBER_TEXT.test(text)) out[field] = Number(text);
  }
  if (out.includeDemoted === 'true' || out.includeDemoted === '') out.includeDemoted = true;
  else if (out.includeDemoted === 'false') out.includeDemoted = false;
  return out;
}
