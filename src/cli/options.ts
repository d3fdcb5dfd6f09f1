// Commander hands an action its options untyped: each command reads them once,
// first thing inside run(), through a zod schema of the options it declares.
// So the action is typed, and a schema out of step with the declarations is a
// clear error (exit 2, naming the option), never an `undefined` passed along.
// The values are still commander's text: each is validated where it is used.
import { z } from 'zod';
import { InvalidInput, invalidInputFromZod } from '../domain/validation/invalid-input.js';

/** What commander gives for each kind of option declaration. */
export const opt = {
  /** `--x <value>`, required or with a default. */
  text: z.string(),
  /** `--x <value>` that may be left out. */
  optionalText: z.string().optional(),
  /** `--x <value...>` that may be left out. */
  optionalList: z.array(z.string()).optional(),
  /** `--x`, a flag. */
  flag: z.boolean().optional(),
};

/** `--tenant` and `--subject`, and the `--idempotency-key` of the writes. */
export const subjectSchema = z.object({ tenant: opt.text, subject: opt.text, idempotencyKey: opt.optionalText });

/** The options commander passed to an action, read through the command's schema (InvalidInput names the option). */
export function optionsOf<S extends z.ZodType>(schema: S, flags: unknown): z.output<S> {
  const parsed = schema.safeParse(flags);
  if (parsed.success) return parsed.data;
  const { field, reason } = invalidInputFromZod(parsed.error);
  throw new InvalidInput(
    field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`),
    reason,
  );
}
