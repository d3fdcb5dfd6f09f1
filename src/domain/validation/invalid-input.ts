// Bad input is a value the caller can act on: which field, and why.
import type { z } from 'zod';
import { findLoneSurrogate, ILL_FORMED_REASON } from './well-formed.js';

export class InvalidInput extends Error {
  override readonly name = 'InvalidInput';
  readonly code = 'invalid_input';
  constructor(
    /** Dotted path of the offending field, e.g. `value.amount` or `source.refs.0`. */
    readonly field: string,
    /** Why, without the field name. */
    readonly reason: string,
  ) {
    super(`${field || 'input'}: ${reason}`);
  }
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: InvalidInput };

function pathText(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => String(p)).join('.');
}

/** The first issue of a zod error as an InvalidInput; `prefix` roots the path (e.g. `entry`). */
export function invalidInputFromZod(error: z.ZodError, prefix?: string): InvalidInput {
  const issue = error.issues[0];
  const root = prefix ? [prefix] : [];
  if (!issue) return new InvalidInput(prefix ?? '', 'is invalid');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    return new InvalidInput(pathText([...root, ...issue.path, key]), 'is not a known field');
  }
  return new InvalidInput(pathText([...root, ...issue.path]), issue.message);
}

/** Runs a zod schema and returns a result whose error names the field. Text must be well-formed Unicode (well-formed.ts). */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, prefix?: string): Parsed<z.output<S>> {
  const illFormed = findLoneSurrogate(input);
  if (illFormed) return { ok: false, error: new InvalidInput(pathText([...(prefix ? [prefix] : []), ...illFormed]), ILL_FORMED_REASON) };
  const result = schema.safeParse(input);
  return result.success ? { ok: true, value: result.data } : { ok: false, error: invalidInputFromZod(result.error, prefix) };
}

/** An error-message function for zod: one text when the field is missing, another when it is malformed. */
export function fieldMessage(invalid: string, missing = 'is required'): (issue: { input?: unknown }) => string {
  return (issue) => (issue.input === undefined ? missing : invalid);
}
