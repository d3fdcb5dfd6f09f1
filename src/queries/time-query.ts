// The input of asOf and replay: which subject, as of which system time,
// about which business time (default: the system time).
import { z } from 'zod';
import { invalidInputFromZod } from '../domain/validation/invalid-input.js';
import { subjectIdSchema, tenantIdSchema } from '../domain/values/ids.js';
import { instantSchema } from '../domain/values/instant-schema.js';

const timeQuerySchema = z.strictObject({
  tenant: tenantIdSchema,
  subject: subjectIdSchema,
  systemTime: instantSchema,
  validTime: instantSchema.optional(),
});

export type TimeQueryInput = z.input<typeof timeQuerySchema>;

export interface TimeQuery {
  readonly tenant: string;
  readonly subject: string;
  readonly systemTime: string;
  readonly validTime: string;
}

/** Validates; InvalidInput names the field (`systemTime`, `validTime`, `tenant`, `subject`). */
export function requireTimeQuery(input: TimeQueryInput): TimeQuery {
  const parsed = timeQuerySchema.safeParse(input);
  if (!parsed.success) throw invalidInputFromZod(parsed.error);
  const { tenant, subject, systemTime, validTime } = parsed.data;
  return { tenant, subject, systemTime, validTime: validTime ?? systemTime };
}
