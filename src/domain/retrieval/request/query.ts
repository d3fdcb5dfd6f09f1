// What a reader asks retrieval for (issue 16), one schema for every
// boundary (CLI flags, HTTP query string and body, MCP tool, package call):
// the question, how many items, optional key and kind filters, a score
// floor, and the token budget recall packs to afterwards.
import { z } from 'zod';
import { memoryKindSchema, type MemoryKind } from '../../entry/vocabulary.js';
import { fieldMessage, parseWith, type Parsed } from '../../validation/invalid-input.js';
import { keyPatternSchema } from './key-pattern.js';

/** Less than 2 KiB of UTF-8: a question, not a document. */
export const MAX_QUERY_BYTES = 2047;
export const DEFAULT_TOP_K = 20;
export const MAX_TOP_K = 200;
export const MAX_RETRIEVAL_BUDGET = 10_000_000;

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

export const retrievalQuerySchema = z.strictObject(
  {
    query: z
      .string({ error: fieldMessage('must be a string') })
      .refine((q) => q.trim().length > 0, { error: 'must not be empty' })
      .refine((q) => utf8Bytes(q) <= MAX_QUERY_BYTES, { error: `must be less than 2 KiB (at most ${MAX_QUERY_BYTES} bytes of UTF-8)` }),
    topK: z
      .number({ error: `must be a whole number from 1 to ${MAX_TOP_K}` })
      .int({ error: `must be a whole number from 1 to ${MAX_TOP_K}` })
      .min(1, { error: `must be a whole number from 1 to ${MAX_TOP_K}` })
      .max(MAX_TOP_K, { error: `must be a whole number from 1 to ${MAX_TOP_K}` })
      .default(DEFAULT_TOP_K),
    key: keyPatternSchema.optional(),
    kind: memoryKindSchema.optional(),
    minScore: z.number({ error: 'must be a number of at least 0' }).min(0, { error: 'must be a number of at least 0' }).optional(),
    budget: z
      .number({ error: 'must be a whole number of tokens' })
      .int({ error: 'must be a whole number of tokens' })
      .min(1, { error: 'must be at least 1' })
      .max(MAX_RETRIEVAL_BUDGET, { error: `must be at most ${MAX_RETRIEVAL_BUDGET}` })
      .optional(),
  },
  { error: fieldMessage('must be an object such as {"query": "how should we contact this user?"}', 'a query is required') },
);

export type RetrievalQueryInput = z.input<typeof retrievalQuerySchema>;

export interface RetrievalQuery {
  readonly query: string;
  readonly topK: number;
  readonly key?: string;
  readonly kind?: MemoryKind;
  readonly minScore?: number;
  readonly budget?: number;
}

export function parseRetrievalQuery(input: unknown): Parsed<RetrievalQuery> {
  const parsed = parseWith(retrievalQuerySchema, input);
  if (!parsed.ok) return parsed;
  const { key, kind, minScore, budget, ...rest } = parsed.value;
  return {
    ok: true,
    value: {
      ...rest,
      ...(key !== undefined ? { key } : {}),
      ...(kind !== undefined ? { kind } : {}),
      ...(minScore !== undefined ? { minScore } : {}),
      ...(budget !== undefined ? { budget } : {}),
    },
  };
}

/** Throws InvalidInput naming the field. */
export function requireRetrievalQuery(input: unknown): RetrievalQuery {
  const parsed = parseRetrievalQuery(input);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}
