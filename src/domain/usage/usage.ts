// What feedback (issue 18, seed 003's MemoryFeedbackEvent) says about one
// memory: how often it was used, confirmed, ignored, corrected or reported
// harmful, when it was last reinforced (used or confirmed: decay counts from
// there), and whether it is under review (harmful until a reviewer confirms
// it). Pure: the subject state and the memory read model fold the same way.
import { z } from 'zod';
import { countSchema } from '../events/fields.js';
import type { Instant } from '../values/instant.js';
import { instantSchema } from '../values/instant-schema.js';

export const FEEDBACK_TYPES = ['used', 'ignored', 'corrected', 'confirmed', 'harmful'] as const;
export type FeedbackType = (typeof FEEDBACK_TYPES)[number];
export const FEEDBACK_SOURCES = ['user', 'human_reviewer', 'verifier', 'system_metric'] as const;
export type FeedbackSource = (typeof FEEDBACK_SOURCES)[number];

/** opened: harmful feedback put an active memory under review; closed: a reviewer confirmed it (reinstated). */
export const REVIEW_CHANGES = ['opened', 'closed'] as const;
export type ReviewChange = (typeof REVIEW_CHANGES)[number];

export const memoryUsageSchema = z.strictObject({
  usedCount: countSchema,
  confirmedCount: countSchema,
  ignoredCount: countSchema,
  harmfulCount: countSchema,
  correctedCount: countSchema,
  /** The latest used or confirmed feedback. */
  lastReinforcedAt: instantSchema.optional(),
  underReview: z.boolean(),
});
export type MemoryUsage = z.output<typeof memoryUsageSchema>;

export const NO_USAGE: MemoryUsage = {
  usedCount: 0,
  confirmedCount: 0,
  ignoredCount: 0,
  harmfulCount: 0,
  correctedCount: 0,
  underReview: false,
};

export interface FeedbackFact {
  readonly type: FeedbackType;
  readonly review?: ReviewChange;
  readonly givenAt: Instant;
}

const COUNTER: Readonly<Record<FeedbackType, keyof MemoryUsage>> = {
  used: 'usedCount',
  confirmed: 'confirmedCount',
  ignored: 'ignoredCount',
  harmful: 'harmfulCount',
  corrected: 'correctedCount',
};

export function usageAfter(usage: MemoryUsage, feedback: FeedbackFact): MemoryUsage {
  const counter = COUNTER[feedback.type];
  const reinforced = feedback.type === 'used' || feedback.type === 'confirmed';
  const latest = reinforced && (usage.lastReinforcedAt === undefined || feedback.givenAt > usage.lastReinforcedAt);
  return {
    ...usage,
    [counter]: (usage[counter] as number) + 1,
    ...(latest ? { lastReinforcedAt: feedback.givenAt } : {}),
    underReview: feedback.review === 'opened' ? true : feedback.review === 'closed' ? false : usage.underReview,
  };
}

/** The review change a feedback makes: harmful opens one on an active memory not yet under review; a reviewer's confirmation closes one. */
export function reviewChangeOf(
  usage: MemoryUsage,
  active: boolean,
  feedback: { readonly type: FeedbackType; readonly source: FeedbackSource },
): ReviewChange | undefined {
  if (feedback.type === 'harmful' && active && !usage.underReview) return 'opened';
  if (feedback.type === 'confirmed' && feedback.source === 'human_reviewer' && usage.underReview) return 'closed';
  return undefined;
}
