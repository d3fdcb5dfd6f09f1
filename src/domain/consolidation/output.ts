// The JSON every summarizer returns (DESIGN section 4, step 3), parsed and
// validated before the gate sees it. Unknown fields are dropped; a missing or
// malformed field is an error naming it (the caller records GenerationFailed).
import { z } from 'zod';
import { memoryKeySchema } from '../entry/key.js';
import { normaliseScopes, scopesSchema, type Scopes } from '../entry/scopes.js';
import { polaritySchema, type Polarity } from '../entry/vocabulary.js';
import { invalidInputFromZod, type InvalidInput } from '../validation/invalid-input.js';
import { conflictIdSchema, memoryIdSchema } from '../values/ids.js';
import { valueSchema, type Value } from '../values/value.js';

export const MAX_SUMMARY_CHARACTERS = 200_000;
export const MAX_STATEMENT_CHARACTERS = 16_000;

export const claimSchema = z.object({
  key: memoryKeySchema,
  /** Absent = unscoped. A claim keeps the scopes of what it derives from. */
  scopes: scopesSchema.optional().transform(normaliseScopes),
  value: valueSchema,
  polarity: polaritySchema,
  derivedFrom: z.array(memoryIdSchema, { error: 'must be an array of memory ids' }),
  /** The open conflicts the claim is one side of: it is stated as disputed, not settled. */
  conflictIds: z.array(conflictIdSchema).optional(),
  /** It rests on an uncertain input (low confidence, a model inference): stated as unverified, never as settled. */
  uncertain: z.boolean({ error: 'must be true or false' }).optional(),
  /** What the claim says in words (its sources' content, whole or shortened): served by recall, so the gate reads its facts. */
  statement: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(MAX_STATEMENT_CHARACTERS, { error: `must be at most ${MAX_STATEMENT_CHARACTERS} characters` })
    .optional(),
});

export const openItemSchema = z.object({
  text: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(4000, { error: 'must be at most 4000 characters' }),
  derivedFrom: z.array(memoryIdSchema, { error: 'must be an array of memory ids' }),
});

export const summarizerOutputSchema = z.object(
  {
    claims: z.array(claimSchema, { error: 'must be an array of claims' }),
    openItems: z.array(openItemSchema, { error: 'must be an array of open items' }),
    conflicts: z.array(conflictIdSchema, { error: 'must be an array of conflict ids' }),
    summary: z
      .string({ error: 'must be a string' })
      .max(MAX_SUMMARY_CHARACTERS, { error: `must be at most ${MAX_SUMMARY_CHARACTERS} characters` }),
  },
  { error: 'must be a JSON object with claims, openItems, conflicts and summary' },
);

export interface Claim {
  readonly key: string;
  readonly scopes: Scopes;
  readonly value: Value;
  readonly polarity: Polarity;
  readonly derivedFrom: readonly string[];
  readonly conflictIds?: readonly string[];
  readonly uncertain?: boolean;
  readonly statement?: string;
}

export interface OpenItem {
  readonly text: string;
  readonly derivedFrom: readonly string[];
}

export interface SummarizerOutput {
  readonly claims: readonly Claim[];
  readonly openItems: readonly OpenItem[];
  readonly conflicts: readonly string[];
  readonly summary: string;
}

export type OutputParse = { readonly ok: true; readonly output: SummarizerOutput } | { readonly ok: false; readonly error: InvalidInput };

/** Validates a summarizer's JSON; the error names the first offending field under `output`. */
export function parseSummarizerOutput(json: unknown): OutputParse {
  const parsed = summarizerOutputSchema.safeParse(json);
  if (!parsed.success) return { ok: false, error: invalidInputFromZod(parsed.error, 'output') };
  const data = parsed.data;
  return {
    ok: true,
    output: {
      claims: data.claims.map((c) => ({
        key: c.key,
        scopes: c.scopes,
        value: c.value as Value,
        polarity: c.polarity,
        derivedFrom: c.derivedFrom,
        ...(c.conflictIds !== undefined ? { conflictIds: c.conflictIds } : {}),
        ...(c.uncertain ? { uncertain: true } : {}),
        ...(c.statement !== undefined ? { statement: c.statement } : {}),
      })),
      openItems: data.openItems.map((o) => ({ text: o.text, derivedFrom: o.derivedFrom })),
      conflicts: data.conflicts,
      summary: data.summary,
    },
  };
}

/** The parts (claims, open items, served words) that cite each memory, each part once per memory. */
export function citingByMemory<T extends { readonly derivedFrom: readonly string[] }>(parts: readonly T[]): Map<string, T[]> {
  const index = new Map<string, T[]>();
  for (const part of parts) {
    for (const id of new Set(part.derivedFrom)) {
      const list = index.get(id);
      if (list) list.push(part);
      else index.set(id, [part]);
    }
  }
  return index;
}
