// What the write gate leaves on the subject stream (issue 17): the audit of
// every gated write (policy version, the rule that decided, detections by
// field and kind, never by value), and the candidate events: a write held
// for review (MemoryProposed, its entry sealed like any content under the
// key of the memory it becomes), and its end unless a reviewer accepts it
// (the accepted write's MemoryRecorded / MemoryCorroborated names the
// proposal): rejected by a reviewer, or expired by the policy.
import { z } from 'zod';
import { sealedEntrySchema } from '../entry/sealed-entry.js';
import { sourceTypeSchema } from '../entry/source.js';
import { memoryIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { clearTextSchema, countSchema } from './fields.js';
import { promotionSchema } from './promotion-events.js';

const detectionKindSchema = z.string().regex(/^(?:secret|personal|injection):[a-z_]{1,40}$/);

/** Absent on events written before the gate existed: those writes were not gated. */
export const gateRecordSchema = z.strictObject({
  /** The tenant's write policy version that decided (0: the built-in default). */
  policyVersion: countSchema,
  /** The rule that decided: a rule id of the policy, `fallback`, or `floor.*`. */
  ruleId: z.string().min(1).max(64),
  /** What the detectors found, by field and kind (never the value). */
  detections: z.array(z.strictObject({ field: z.string().min(1).max(300), kind: detectionKindSchema })).max(200),
  /** The source type the body claimed, when the credential's bound lowered it. */
  claimedSourceType: sourceTypeSchema.optional(),
  /** External, or carrying injection markers: served labelled as untrusted content. */
  untrusted: z.boolean(),
  /** Why, in short codes (e.g. `rule_matched:transient-short-ttl:accept_with_ttl`, `sensitivity_raised:public>personal`). */
  reasons: z.array(z.string().min(1).max(300)).max(220),
});
export type GateRecord = z.output<typeof gateRecordSchema>;

export const memoryProposedSchema = z.strictObject({
  /** The id the memory takes when a reviewer accepts it (the entry is sealed under its key). */
  memoryId: memoryIdSchema,
  entry: sealedEntrySchema,
  gate: gateRecordSchema,
  proposedAt: instantSchema,
  /** After this the candidate expires unreviewed (the policy's candidateExpiry). */
  expiresAt: instantSchema,
  /** A promotion from a private namespace (issue 19): accepting it records the copy with its origin. */
  promotion: promotionSchema.optional(),
});

export const proposalRejectedSchema = z.strictObject({
  memoryId: memoryIdSchema,
  reason: clearTextSchema.optional(),
  rejectedAt: instantSchema,
});

export const proposalExpiredSchema = z.strictObject({
  memoryId: memoryIdSchema,
  expiresAt: instantSchema,
  expiredAt: instantSchema,
});

export const WRITE_GATE_EVENT_SCHEMAS = {
  MemoryProposed: memoryProposedSchema,
  ProposalRejected: proposalRejectedSchema,
  ProposalExpired: proposalExpiredSchema,
} as const;
