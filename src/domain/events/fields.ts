// Field schemas shared by event definitions.
import { z } from 'zod';

export const sequenceSchema = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(1, { error: 'must be at least 1' });
export const countSchema = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must not be negative' });
/** Free text stored in clear (reasons, messages): keep personal content out of it. */
export const clearTextSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(1000, { error: 'must be at most 1000 characters' });
export const sha256HexSchema = z
  .string({ error: 'must be a hex string' })
  .regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lowercase hex digits (SHA-256)' });
