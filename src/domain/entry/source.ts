// Where a statement came from, and how far it is trusted. The trust order
// decides whether a newer statement may supersede an older one.
import { z } from 'zod';
import { fieldMessage } from '../validation/invalid-input.js';

/** Highest trust first. */
export const SOURCE_TYPES = ['human_review', 'user_assertion', 'verified_tool_fact', 'derived_summary', 'model_inference'] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];
export const sourceTypeSchema = z.enum(SOURCE_TYPES, { error: fieldMessage(`must be one of ${SOURCE_TYPES.join(', ')}`) });

/** The trust levels: a source type's own level, or `untrusted` for tainted sources (below everything). */
export const TRUST_LEVELS = [...SOURCE_TYPES, 'untrusted'] as const;
export type TrustLevel = (typeof TRUST_LEVELS)[number];
export const trustLevelSchema = z.enum(TRUST_LEVELS, { error: fieldMessage(`must be one of ${TRUST_LEVELS.join(', ')}`) });

/** Higher is more trusted: human_review 5 … model_inference 1, untrusted 0. */
export function trustRank(level: TrustLevel): number {
  return TRUST_LEVELS.length - 1 - TRUST_LEVELS.indexOf(level);
}

const SOURCE_REF = /^[^\s\p{Cc}]{1,512}$/u;
export const sourceRefSchema = z
  .string({ error: fieldMessage('must be a string') })
  .regex(SOURCE_REF, { error: 'must be 1-512 characters without whitespace, e.g. "msg://thread-9/turn-14"' });

export const sourceSchema = z.strictObject(
  {
    type: sourceTypeSchema,
    refs: z.array(sourceRefSchema, { error: 'must be an array of strings' }).max(64, { error: 'must list at most 64 refs' }).default([]),
  },
  { error: fieldMessage('must be an object such as {"type": "user_assertion", "refs": ["msg://thread-9/turn-14"]}') },
);
export type Source = z.output<typeof sourceSchema>;
