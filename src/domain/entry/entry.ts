// The memory entry as a client writes it (DESIGN section 10). Only kind, key,
// value and source are required; instants come back normalised to UTC.
import { z } from 'zod';
import { valueSchema, type Value } from '../values/value.js';
import { fieldMessage, InvalidInput, parseWith } from '../validation/invalid-input.js';
import { memoryKeySchema } from './key.js';
import { normaliseScopes, scopesSchema, type Scopes } from './scopes.js';
import { sharedClearShape } from './clear-shape.js';
import { sourceSchema, type Source } from './source.js';
import { memoryKindSchema, polaritySchema, sensitivitySchema, type MemoryKind, type Polarity, type Sensitivity } from './vocabulary.js';
import type { Instant } from '../values/instant.js';

/** Content limit in UTF-8 bytes: a memory is a statement, not a document; long text belongs behind a source ref. */
export const MAX_CONTENT_BYTES = 16 * 1024;

export const contentSchema = z
  .string({ error: fieldMessage('must be a string') })
  .min(1, { error: 'must not be empty' })
  .refine((text) => new TextEncoder().encode(text).length <= MAX_CONTENT_BYTES, {
    error: `must be at most ${MAX_CONTENT_BYTES} bytes of UTF-8`,
  });

/** Write-time query expansion (seed 004): questions under which the entry should be found, sealed like content. */
export const MAX_ANTICIPATED_QUERIES = 8;
/** Per question, in characters (code points). */
export const MAX_ANTICIPATED_QUERY_CHARS = 256;

export const anticipatedQuerySchema = z
  .string({ error: 'must be a string' })
  .trim()
  .min(1, { error: 'must not be empty' })
  .refine((text) => [...text].length <= MAX_ANTICIPATED_QUERY_CHARS, {
    error: `must be at most ${MAX_ANTICIPATED_QUERY_CHARS} characters`,
  });

export const anticipatedQueriesSchema = z
  .array(anticipatedQuerySchema, { error: 'must be an array of questions' })
  .max(MAX_ANTICIPATED_QUERIES, { error: `must hold at most ${MAX_ANTICIPATED_QUERIES} questions` });

export const entrySchema = z
  .strictObject(
    {
      kind: memoryKindSchema,
      key: memoryKeySchema,
      value: valueSchema,
      polarity: polaritySchema.default('affirmed'),
      content: contentSchema.optional(),
      anticipatedQueries: anticipatedQueriesSchema.optional(),
      source: sourceSchema,
      confidence: z
        .number({ error: 'must be a number from 0 to 1' })
        .min(0, { error: 'must be a number from 0 to 1' })
        .max(1, { error: 'must be a number from 0 to 1' })
        .optional(),
      sensitivity: sensitivitySchema.default('normal'),
      scopes: scopesSchema.optional().transform(normaliseScopes),
      ...sharedClearShape,
    },
    { error: fieldMessage('must be a JSON object', 'an entry is required') },
  )
  .superRefine((entry, ctx) => {
    if (entry.validFrom !== undefined && entry.validTo !== undefined && entry.validTo <= entry.validFrom) {
      ctx.addIssue({ code: 'custom', path: ['validTo'], message: 'must be later than validFrom' });
    }
  });

/** A validated entry. Optional fields the client left out stay absent, except the defaults (polarity, sensitivity, scopes). */
export interface MemoryEntry {
  readonly kind: MemoryKind;
  readonly key: string;
  readonly value: Value;
  readonly polarity: Polarity;
  readonly content?: string;
  readonly anticipatedQueries?: readonly string[];
  readonly source: Source;
  readonly confidence?: number;
  readonly sensitivity: Sensitivity;
  readonly scopes: Scopes;
  readonly validFrom?: Instant;
  readonly validTo?: Instant;
  readonly expiresAt?: Instant;
  readonly consentRef?: string;
  /** What it may be used for (purposes.ts); absent: any purpose. */
  readonly purposes?: readonly string[];
}

export type EntryParse = { ok: true; entry: MemoryEntry } | { ok: false; error: InvalidInput };

/** Validates a client's entry; the error names the first offending field (dotted path, e.g. `value.amount`). */
export function parseEntry(input: unknown): EntryParse {
  const parsed = parseWith(entrySchema, input);
  if (!parsed.ok) {
    const { error } = parsed;
    return { ok: false, error: error.field === '' ? new InvalidInput('entry', error.reason) : error };
  }
  return { ok: true, entry: dropUndefined(parsed.value) as MemoryEntry };
}

/** As parseEntry, throwing InvalidInput. */
export function requireEntry(input: unknown): MemoryEntry {
  const parsed = parseEntry(input);
  if (!parsed.ok) throw parsed.error;
  return parsed.entry;
}

function dropUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T;
}
