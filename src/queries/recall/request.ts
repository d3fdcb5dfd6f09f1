// What a reader asks recall for, validated at the boundary: whose memory,
// in which scopes, up to which sensitivity, within how many tokens, and
// "now" for validity and expiry (default: the clock).
import { z } from 'zod';
import { normaliseScopes, scopesSchema, type Scopes } from '../../domain/entry/scopes.js';
import { sensitivitySchema, type Sensitivity } from '../../domain/entry/vocabulary.js';
import { invalidInputFromZod } from '../../domain/validation/invalid-input.js';
import { subjectIdSchema, tenantIdSchema } from '../../domain/values/ids.js';
import { instantSchema } from '../../domain/values/instant-schema.js';

/** Without a ceiling, confidential and restricted entries stay out of an agent's context. */
export const DEFAULT_SENSITIVITY_CEILING: Sensitivity = 'personal';
export const MAX_BUDGET = 10_000_000;

const recallRequestSchema = z.strictObject({
  tenant: tenantIdSchema,
  subject: subjectIdSchema,
  /** The reader's scopes: an entry applies when every scope it names has the reader's value. */
  scopes: scopesSchema.optional(),
  maxSensitivity: sensitivitySchema.optional(),
  /** Tokens (cl100k_base) the items may take; absent = no limit. */
  budget: z
    .number({ error: 'must be a whole number of tokens' })
    .int({ error: 'must be a whole number of tokens' })
    .min(1, { error: 'must be at least 1' })
    .max(MAX_BUDGET, { error: `must be at most ${MAX_BUDGET}` })
    .optional(),
  now: instantSchema.optional(),
});

export type RecallInput = z.input<typeof recallRequestSchema>;

export interface RecallRequest {
  readonly tenant: string;
  readonly subject: string;
  readonly scopes: Scopes;
  readonly maxSensitivity: Sensitivity;
  readonly budget: number | undefined;
  readonly now: string | undefined;
}

export function requireRecallRequest(input: RecallInput): RecallRequest {
  const parsed = recallRequestSchema.safeParse(input);
  if (!parsed.success) throw invalidInputFromZod(parsed.error);
  const d = parsed.data;
  return {
    tenant: d.tenant,
    subject: d.subject,
    scopes: normaliseScopes(d.scopes),
    maxSensitivity: d.maxSensitivity ?? DEFAULT_SENSITIVITY_CEILING,
    budget: d.budget,
    now: d.now,
  };
}
