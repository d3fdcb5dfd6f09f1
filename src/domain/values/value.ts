// The typed value of a memory entry (DESIGN section 10).
import { z } from 'zod';
import { parseDecimal } from '../canonical/decimal.js';
import { canonicalJson } from '../canonical/canonical-json.js';
import { fieldMessage } from '../validation/invalid-input.js';
import { parseCalendarDate, parseInstant } from './instant.js';
import { findNonJson, type JsonValue } from './json-value.js';

export const VALUE_TYPES = ['text', 'number', 'date', 'entity', 'boolean', 'json'] as const;
export type ValueType = (typeof VALUE_TYPES)[number];

/** Limit on a value's canonical JSON and on text values, in UTF-8 bytes. Same as content. */
export const MAX_VALUE_BYTES = 16 * 1024;
const NO_CONTROL = /^[^\p{Cc}]*$/u;
const TRIMMED = /^\S(?:[\s\S]*\S)?$/;

export const valueTypeSchema = z.enum(VALUE_TYPES, { error: fieldMessage(`must be one of ${VALUE_TYPES.join(', ')}`) });

const utf8Bytes = (text: string) => new TextEncoder().encode(text).length;

const textValue = z.strictObject({
  type: z.literal('text'),
  text: z
    .string({ error: fieldMessage('must be a string') })
    .min(1, { error: 'must not be empty' })
    .refine((t) => utf8Bytes(t) <= MAX_VALUE_BYTES, { error: `must be at most ${MAX_VALUE_BYTES} bytes of UTF-8` }),
});

const numberValue = z.strictObject({
  type: z.literal('number'),
  amount: z
    .union([z.string(), z.number()], { error: fieldMessage('must be a decimal number or a decimal string') })
    .superRefine((amount, ctx) => {
      if (typeof amount === 'string' && amount.length > 100) {
        ctx.addIssue({ code: 'custom', message: 'must be at most 100 characters' });
        return;
      }
      const parsed = parseDecimal(amount);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
    }),
  unit: z
    .string({ error: 'must be a string' })
    .min(1, { error: 'must not be empty' })
    .max(32, { error: 'must be at most 32 characters' })
    .regex(NO_CONTROL, { error: 'must not contain control characters' })
    .regex(TRIMMED, { error: 'must not start or end with whitespace' })
    .optional(),
});

const dateValue = z.strictObject({
  type: z.literal('date'),
  date: z.string({ error: fieldMessage('must be a string') }).superRefine((text, ctx) => {
    if (DATE_ONLY.test(text)) {
      const parsed = parseCalendarDate(text);
      if (!parsed.ok) ctx.addIssue({ code: 'custom', message: parsed.message });
      return;
    }
    const parsed = parseInstant(text);
    if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `must be a date YYYY-MM-DD or a date-time: ${parsed.message}` });
  }),
});
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

const entityValue = z.strictObject({
  type: z.literal('entity'),
  id: z
    .string({ error: fieldMessage('must be a string') })
    .min(1, { error: 'must not be empty' })
    .max(256, { error: 'must be at most 256 characters' })
    .regex(/^[^\s\p{Cc}]+$/u, { error: 'must not contain whitespace or control characters' }),
});

const booleanValue = z.strictObject({
  type: z.literal('boolean'),
  value: z.boolean({ error: fieldMessage('must be true or false') }),
});

const jsonValue = z.strictObject({
  type: z.literal('json'),
  json: z.unknown().superRefine((json, ctx) => {
    if (json === undefined) {
      ctx.addIssue({ code: 'custom', message: 'is required' });
      return;
    }
    const bad = findNonJson(json);
    if (bad) {
      ctx.addIssue({ code: 'custom', message: bad.message, path: bad.path });
      return;
    }
    if (utf8Bytes(canonicalJson(json)) > MAX_VALUE_BYTES) {
      ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_VALUE_BYTES} bytes as canonical JSON` });
    }
  }),
});

export const valueSchema = z.discriminatedUnion('type', [textValue, numberValue, dateValue, entityValue, booleanValue, jsonValue], {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? `must be one of ${VALUE_TYPES.join(', ')}`
      : issue.input === undefined
        ? 'is required'
        : 'must be an object such as {"type": "text", "text": "sms"}',
});

type ParsedValue = z.output<typeof valueSchema>;
/** A typed value; `json` is narrowed from unknown to JSON data (the schema checked it). */
export type Value = Exclude<ParsedValue, { type: 'json' }> | { type: 'json'; json: JsonValue };
export type TextValue = Extract<Value, { type: 'text' }>;
export type NumberValue = Extract<Value, { type: 'number' }>;
