import { z } from 'zod';
import { fieldMessage } from '../validation/invalid-input.js';
import { parseCalendarDate, parseInstant, type Instant } from './instant.js';

/** An ISO 8601 date-time with offset, validated as a real date and normalised to UTC milliseconds. */
export const instantSchema = z
  .string({ error: fieldMessage('must be an ISO 8601 date-time string with an offset') })
  .transform((text, ctx): Instant => {
    const parsed = parseInstant(text);
    if (parsed.ok) return parsed.instant;
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  });

export const calendarDateSchema = z.string({ error: fieldMessage('must be a YYYY-MM-DD string') }).superRefine((text, ctx) => {
  const parsed = parseCalendarDate(text);
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
});
