// Path parameters and shared shapes of the API. Ids follow the domain's id
// rule; the field named in an error is the parameter's name as in the path.
import { z } from 'zod';
import { clearTextSchema } from '../../domain/events/fields.js';
import { artifactIdSchema, conflictIdSchema, memoryIdSchema, subjectIdSchema } from '../../domain/values/ids.js';

export const subjectParams = z.strictObject({ subject: subjectIdSchema });
export const memoryParams = z.strictObject({ subject: subjectIdSchema, memoryId: memoryIdSchema });
export const conflictParams = z.strictObject({ subject: subjectIdSchema, conflictId: conflictIdSchema });
export const artifactParams = z.strictObject({ artifactId: artifactIdSchema });

/** Free text kept in the clear in events (reasons): never personal content. The events' rule, after trimming. */
export const reasonSchema = z.string({ error: 'must be a string' }).trim().pipe(clearTextSchema);

/** RFC 9457 problem details, with the CLI's error code and the field at fault. */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
  field: z.string().optional(),
});

/** A whole number from the query string. */
export function queryWholeNumber(min: number, max: number) {
  const rule = `must be a whole number from ${min} to ${max}`;
  return z
    .string({ error: rule })
    .regex(/^\d{1,16}$/, { error: rule })
    .transform(Number)
    .refine((n) => Number.isSafeInteger(n) && n >= min && n <= max, { error: rule });
}

/** A JSON object whose unknown fields pass through (responses keep growing; clients ignore what they do not know). */
export const openObject = z.looseObject({});
