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
/**
 * Free text stored in clear (reasons, messages): keep personal content out
 * of it. No control characters but tab and line breaks (PostgreSQL cannot
 * store NUL in text or jsonb).
 */
export const clearTextSchema = z
  .string({ error: 'must be a string' })
  .min(1, { error: 'must not be empty' })
  .max(1000, { error: 'must be at most 1000 characters' })
  .regex(/^(?:[\t\n\r]|\P{Cc})*$/u, { error: 'must not contain control characters (tab and line breaks are fine)' });
/** Text of our own making (an upstream's error, a gate's finding) made fit for clearTextSchema: disallowed characters become U+FFFD, long text is cut. */
export function toClearText(text: string): string {
  const fit = text.replace(/\p{Cs}|(?![\t\n\r])\p{Cc}/gu, '\uFFFD') || '(empty)';
  return fit.length <= 1000 ? fit : `${fit.slice(0, 997)}...`;
}

export const sha256HexSchema = z
  .string({ error: 'must be a hex string' })
  .regex(/^[0-9a-f]{64}$/, { error: 'must be 64 lowercase hex digits (SHA-256)' });
