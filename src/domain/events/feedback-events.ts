// Feedback on a served memory (issue 18 item 2; seed 003's
// MemoryFeedbackEvent), on the subject stream: which recall served it (the
// recall stream's record), what the reader did with it, who says so, and
// evidence refs (stored in clear: refs, never content). `review` says
// whether it put the memory under review (harmful) or ended a review (a
// reviewer confirmed it); either advances inputEpoch (the memory leaves or
// rejoins what a summary may serve).
import { z } from 'zod';
import { sourceRefSchema } from '../entry/source.js';
import { FEEDBACK_SOURCES, FEEDBACK_TYPES, REVIEW_CHANGES } from '../usage/usage.js';
import { memoryIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { sequenceSchema } from './fields.js';
import { recallIdSchema } from './recall-events.js';

export const memoryFeedbackGivenSchema = z.strictObject({
  memoryId: memoryIdSchema,
  /** The version the recall served. */
  memoryVersion: sequenceSchema.optional(),
  /** Absent only for a reviewer's decision on a memory under review (no recall is involved). */
  recallId: recallIdSchema.optional(),
  type: z.enum(FEEDBACK_TYPES),
  source: z.enum(FEEDBACK_SOURCES),
  evidenceRefs: z.array(sourceRefSchema).max(32),
  /** corrected: the entry that superseded this one. */
  correctedBy: memoryIdSchema.optional(),
  review: z.enum(REVIEW_CHANGES).optional(),
  givenAt: instantSchema,
});

export const FEEDBACK_EVENT_SCHEMAS = { MemoryFeedbackGiven: memoryFeedbackGivenSchema } as const;
