// Commands on a subject stream. Every id and the time are inputs (the
// handler derives ids from the idempotency key and reads the clock), so
// decide is a pure function of (state, command).
import { z } from 'zod';
import { sealedEntrySchema } from '../entry/sealed-entry.js';
import { sourceRefSchema, sourceTypeSchema, trustLevelSchema } from '../entry/source.js';
import { clearTextSchema, countSchema } from '../events/fields.js';
import { DEMOTION_REASONS } from '../lifecycle/plan.js';
import { manifestSchema } from '../events/manifest.js';
import { deletionReceiptIssuedSchema, refPatternSchema } from '../events/subject-events.js';
import { gateRecordSchema } from '../events/write-gate-events.js';
import { promotionOriginSchema, promotionSchema } from '../events/promotion-events.js';
import { recallIdSchema } from '../events/recall-events.js';
import { FEEDBACK_SOURCES, FEEDBACK_TYPES } from '../usage/usage.js';
import { artifactIdSchema, conflictIdSchema, memoryIdSchema, receiptIdSchema, subjectIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';

const now = instantSchema;

/**
 * Active entries of the slot whose value the new one refines, as the command
 * layer found them with both values opened (refinement.ts): values are sealed,
 * so the decider cannot compare them; it only trusts this list for entries it
 * supersedes anyway (newer, at least as trusted, or named).
 */
const refinesSchema = z.array(memoryIdSchema).optional();

export const recordMemorySchema = z.strictObject({
  type: z.literal('RecordMemory'),
  memoryId: memoryIdSchema,
  /** Used only when the decision is CONFLICTS. */
  conflictId: conflictIdSchema,
  entry: sealedEntrySchema,
  /** The write gate's audit, recorded on the event. */
  gate: gateRecordSchema.optional(),
  /** A reviewer accepting a candidate: its memory id (then equal to memoryId). */
  proposal: memoryIdSchema.optional(),
  refines: refinesSchema,
  /** An accepted promotion's origin, recorded on the entry. */
  promotedFrom: promotionOriginSchema.optional(),
  now,
});

export const supersedeMemorySchema = z.strictObject({
  type: z.literal('SupersedeMemory'),
  /** The entry being replaced. */
  memoryId: memoryIdSchema,
  newMemoryId: memoryIdSchema,
  /** Used only when the new entry disagrees with another active entry of the slot. */
  conflictId: conflictIdSchema,
  entry: sealedEntrySchema,
  gate: gateRecordSchema.optional(),
  refines: refinesSchema,
  now,
});

/** A write the gate held for review: a candidate, never an entry until accepted. */
export const proposeMemorySchema = z.strictObject({
  type: z.literal('ProposeMemory'),
  memoryId: memoryIdSchema,
  entry: sealedEntrySchema,
  gate: gateRecordSchema,
  expiresAt: instantSchema,
  promotion: promotionSchema.optional(),
  now,
});

/** On the source stream: a promotion of one of its active entries into a shared namespace was asked for. */
export const promoteMemorySchema = z.strictObject({
  type: z.literal('PromoteMemory'),
  memoryId: memoryIdSchema,
  to: subjectIdSchema,
  as: memoryIdSchema,
  reason: clearTextSchema,
  requestedBy: clearTextSchema.optional(),
  now,
});

export const rejectProposalSchema = z.strictObject({
  type: z.literal('RejectProposal'),
  memoryId: memoryIdSchema,
  reason: clearTextSchema.optional(),
  now,
});

/** The sweeper: pending candidates past their expiry. */
export const expireProposalsSchema = z.strictObject({
  type: z.literal('ExpireProposals'),
  now,
});

export const retractMemorySchema = z.strictObject({
  type: z.literal('RetractMemory'),
  memoryId: memoryIdSchema,
  reason: clearTextSchema,
  now,
});

export const resolveConflictSchema = z.strictObject({
  type: z.literal('ResolveConflict'),
  conflictId: conflictIdSchema,
  winner: memoryIdSchema,
  reason: clearTextSchema.optional(),
  now,
});

export const changeTrustSchema = z.strictObject({
  type: z.literal('ChangeTrust'),
  sourceRef: sourceRefSchema,
  level: trustLevelSchema,
  reason: clearTextSchema.optional(),
  now,
});

export const escalateTaintPolicySchema = z.strictObject({
  type: z.literal('EscalateTaintPolicy'),
  refPatterns: z.array(refPatternSchema).default([]),
  sourceTypes: z.array(sourceTypeSchema).default([]),
  reason: clearTextSchema,
  now,
});

export const expireMemoriesSchema = z.strictObject({
  type: z.literal('ExpireMemories'),
  now,
});

export const forgetMemorySchema = z.strictObject({
  type: z.literal('ForgetMemory'),
  memoryId: memoryIdSchema,
  receiptId: receiptIdSchema,
  /** Keys the caller destroyed (or will destroy) for this erasure, listed on the receipt. */
  destroyedKeyIds: z.array(z.string().min(1).max(256)).default([]),
  /** Artifacts the read side knows derive from the entry; the decider adds the alias's when it covers it. */
  invalidatedArtifactIds: z.array(artifactIdSchema).default([]),
  reason: clearTextSchema.optional(),
  now,
});

export const forgetSubjectSchema = z.strictObject({
  type: z.literal('ForgetSubject'),
  receiptId: receiptIdSchema,
  destroyedKeyIds: z.array(z.string().min(1).max(256)).default([]),
  invalidatedArtifactIds: z.array(artifactIdSchema).default([]),
  reason: clearTextSchema.optional(),
  now,
});

/** Tombstones for entries whose keys the caller destroyed; the receipt follows once the erasure is verified (IssueDeletionReceipt). */
export const eraseMemoriesSchema = z.strictObject({
  type: z.literal('EraseMemories'),
  memoryIds: z.array(memoryIdSchema).min(1),
  reason: clearTextSchema.optional(),
  now,
});

/** The tombstone of a whole subject whose keys the caller destroyed; the receipt follows. */
export const eraseSubjectSchema = z.strictObject({
  type: z.literal('EraseSubject'),
  reason: clearTextSchema.optional(),
  now,
});

export const issueDeletionReceiptSchema = z.strictObject({
  type: z.literal('IssueDeletionReceipt'),
  receipt: deletionReceiptIssuedSchema,
  now,
});

/** The retention sweeper: entries due by the tenant's policy (src/domain/retention), each with the instant it fell due. */
export const expireByRetentionSchema = z.strictObject({
  type: z.literal('ExpireByRetention'),
  expirations: z.array(z.strictObject({ memoryId: memoryIdSchema, expiresAt: instantSchema })),
  now,
});

export const switchSummaryAliasSchema = z.strictObject({
  type: z.literal('SwitchSummaryAlias'),
  manifest: manifestSchema,
  now,
});

/** The lifecycle sweeper (src/domain/lifecycle/plan.ts): demotions and capacity archivals decided at `now` under one policy version. */
export const sweepLifecycleSchema = z.strictObject({
  type: z.literal('SweepLifecycle'),
  policyVersion: countSchema,
  demotions: z.array(
    z.strictObject({
      memoryId: memoryIdSchema,
      reason: z.enum(DEMOTION_REASONS),
      rule: z.string().min(1).max(100),
      lastReinforcedAt: instantSchema,
    }),
  ),
  archivals: z.array(z.strictObject({ memoryId: memoryIdSchema, rule: z.string().min(1).max(100), value: z.number().min(0) })),
  now,
});

/** A reviewer or admin brings a demoted memory back. */
export const restoreMemorySchema = z.strictObject({
  type: z.literal('RestoreMemory'),
  memoryId: memoryIdSchema,
  note: clearTextSchema.optional(),
  now,
});

/** Feedback on a memory a recall served (the handler checked the recall served it), or a reviewer's decision on one under review. */
export const giveFeedbackSchema = z.strictObject({
  type: z.literal('GiveFeedback'),
  memoryId: memoryIdSchema,
  memoryVersion: z.number().int().min(1).optional(),
  recallId: recallIdSchema.optional(),
  feedback: z.enum(FEEDBACK_TYPES),
  source: z.enum(FEEDBACK_SOURCES),
  evidenceRefs: z.array(sourceRefSchema).max(32).default([]),
  now,
});

export const subjectCommandSchema = z.discriminatedUnion('type', [
  recordMemorySchema,
  supersedeMemorySchema,
  retractMemorySchema,
  resolveConflictSchema,
  changeTrustSchema,
  escalateTaintPolicySchema,
  expireMemoriesSchema,
  forgetMemorySchema,
  forgetSubjectSchema,
  eraseMemoriesSchema,
  eraseSubjectSchema,
  issueDeletionReceiptSchema,
  expireByRetentionSchema,
  switchSummaryAliasSchema,
  proposeMemorySchema,
  rejectProposalSchema,
  expireProposalsSchema,
  sweepLifecycleSchema,
  restoreMemorySchema,
  giveFeedbackSchema,
  promoteMemorySchema,
]);

export type SubjectCommand = z.output<typeof subjectCommandSchema>;
export type SubjectCommandOf<T extends SubjectCommand['type']> = Extract<SubjectCommand, { type: T }>;
