// The optional clear fields that the client's entry and the sealed entry (so
// MemoryRecorded) check alike, in the order both shapes end with (zod reports
// the first offending field in shape order). Confidence is not here: the
// client's schema carries its own error message.
import { z } from 'zod';
import { instantSchema } from '../values/instant-schema.js';
import type { OptionalClearField } from './fields.js';
import { sourceRefSchema } from './source.js';
import { purposesSchema } from './purposes.js';

export const sharedClearShape = {
  validFrom: instantSchema.optional(),
  validTo: instantSchema.optional(),
  expiresAt: instantSchema.optional(),
  consentRef: sourceRefSchema.optional(),
  purposes: purposesSchema.optional(),
} satisfies Record<Exclude<OptionalClearField, 'confidence'>, z.ZodType>;
