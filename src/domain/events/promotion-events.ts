// Promotion (issue 19 item 3): a private memory reaches a shared namespace
// only as a candidate there that a reviewer accepts. The source stream
// records that it was asked (MemoryPromoted: who, why, to where, under which
// id): the link an erasure of the source follows to the copy. The target's
// MemoryProposed carries the promotion, and the accepted MemoryRecorded its
// origin (promotedFrom): the lineage recall shows.
import { z } from 'zod';
import { memoryIdSchema, subjectIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { clearTextSchema, sequenceSchema } from './fields.js';

/** Where a promoted memory came from: ids only. */
export const promotionOriginSchema = z.strictObject({
  subject: subjectIdSchema,
  memoryId: memoryIdSchema,
  /** The source entry's sequence on its stream (the version promoted). */
  sequence: sequenceSchema,
});
export type PromotionOrigin = z.output<typeof promotionOriginSchema>;

/** On the target's MemoryProposed: what is promoted, by whom and why. */
export const promotionSchema = z.strictObject({
  from: promotionOriginSchema,
  reason: clearTextSchema,
  requestedBy: clearTextSchema.optional(),
});
export type Promotion = z.output<typeof promotionSchema>;

/** On the source stream. */
export const memoryPromotedSchema = z.strictObject({
  memoryId: memoryIdSchema,
  sequence: sequenceSchema,
  /** The shared namespace (subject) the copy is proposed in. */
  to: subjectIdSchema,
  /** The candidate's id there (the memory id it keeps when accepted). */
  as: memoryIdSchema,
  reason: clearTextSchema,
  requestedBy: clearTextSchema.optional(),
  requestedAt: instantSchema,
});

/**
 * What an erasure of the source did to a promoted copy: erased now, erased
 * before (by the namespace's own erasure), never proposed (the promotion
 * stopped between its two appends), or failed (the source's receipt then
 * fails its verification).
 */
export const PROMOTED_COPY_OUTCOMES = ['erased', 'already_erased', 'not_proposed', 'failed'] as const;
export type PromotedCopyOutcome = (typeof PROMOTED_COPY_OUTCOMES)[number];

export const PROMOTION_EVENT_SCHEMAS = { MemoryPromoted: memoryPromotedSchema } as const;
