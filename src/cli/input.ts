// Option values from the command line: JSON given inline, as @file, or on
// stdin (-); every value is validated where it is used, with the option's name.
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InvalidInput, parseWith } from '../domain/validation/invalid-input.js';
import { instantSchema } from '../domain/values/instant-schema.js';
import { decodeUtf8, INVALID_UTF8_REASON } from '../domain/validation/well-formed.js';

export function readText(option: string, spec: string): string {
  if (spec !== '-' && !spec.startsWith('@')) return spec;
  let bytes: Buffer;
  try {
    bytes = readFileSync(spec === '-' ? 0 : spec.slice(1));
  } catch (error) {
    throw new InvalidInput(option, `cannot be read: ${(error as Error).message}`);
  }
  const text = decodeUtf8(bytes);
  if (text === undefined) throw new InvalidInput(option, INVALID_UTF8_REASON);
  return text;
}

export function readJson(option: string, spec: string): unknown {
  const text = readText(option, spec);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidInput(option, `is not valid JSON: ${(error as Error).message}`);
  }
}

export function optionalInstant(option: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const parsed = parseWith(instantSchema, value);
  if (!parsed.ok) throw new InvalidInput(option, parsed.error.reason);
  return parsed.value;
}

export function oneOf<T extends string>(option: string, values: readonly T[], value: string): T {
  const parsed = z.enum(values as [T, ...T[]]).safeParse(value);
  if (!parsed.success) throw new InvalidInput(option, `must be one of ${values.join(', ')}`);
  return parsed.data;
}

export function requiredText(option: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new InvalidInput(option, 'is required');
  return value;
}

/** A request's bad field named as the flag it came in (`flagOf`: field -> flag; others keep their name). */
export function asFlags<T>(flagOf: Readonly<Record<string, string>>, action: () => Promise<T>): Promise<T> {
  return action().catch((error: unknown) => {
    if (!(error instanceof InvalidInput)) throw error;
    const [head, ...rest] = error.field.split('.');
    throw new InvalidInput([flagOf[head!] ?? head!, ...rest].join('.'), error.reason);
  });
}

/** A whole-number option from min to max, or undefined when absent. */
export function wholeNumber(option: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max)
    throw new InvalidInput(option, `must be a whole number from ${min} to ${max}`);
  return n;
}
