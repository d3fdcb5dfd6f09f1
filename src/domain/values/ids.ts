// Identifiers that appear in stream names and events. A slash would split a
// stream name, whitespace and control characters make ids ambiguous in logs.
import { z } from 'zod';
import { fieldMessage, InvalidInput } from '../validation/invalid-input.js';

export const MAX_ID_LENGTH = 128;
const ID = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;
const ID_RULE = 'must be 1-128 characters of letters, digits and . _ : @ -, starting with a letter or digit';

export function idSchema(): z.ZodString {
  return z.string({ error: fieldMessage(ID_RULE) }).regex(ID, { error: ID_RULE });
}

export const tenantIdSchema = idSchema();
export const subjectIdSchema = idSchema();
export const memoryIdSchema = idSchema();
export const conflictIdSchema = idSchema();
export const artifactIdSchema = idSchema();
export const receiptIdSchema = idSchema();

/** Returns the id or throws InvalidInput naming `field`. */
export function requireId(field: string, value: unknown): string {
  if (typeof value === 'string' && ID.test(value)) return value;
  throw new InvalidInput(field, value === undefined ? 'is required' : ID_RULE);
}
