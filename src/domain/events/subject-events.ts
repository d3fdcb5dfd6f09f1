// Events of the subject stream `memory-{tenant}/{subject}` (DESIGN section 3),
// current schema versions. Personal fields (value, content) are sealed.
import { z } from 'zod';
import { memoryKeySchema } from '../entry/key.js';
import { sealedEntryShape } from '../entry/sealed-entry.js';
import { scopesSchema, normaliseScopes } from '../entry/scopes.js';
import { sourceRefSchema, sourceSchema, sourceTypeSchema, trustLevelSchema } from '../entry/source.js';
import { artifactIdSchema, conflictIdSchema, memoryIdSchema, receiptIdSchema, subjectIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { aliasTupleSchema } from './alias.js';
import { clearTextSchema, countSchema, sequenceSchema } from './fields.js';
import { FEEDBACK_EVENT_SCHEMAS } from './feedback-events.js';
import { gateRecordSchema, WRITE_GATE_EVENT_SCHEMAS } from './write-gate-events.js';
import { LIFECYCLE_EVENT_SCHEMAS } from './lifecycle-events.js';
import { PROMOTED_COPY_OUTCOMES, PROMOTION_EVENT_SCHEMAS, promotionOriginSchema } from './promotion-events.js';

/** The write decisions (src/domain/subject/write-decision.ts). */
export const WRITE_OUTCOMES = ['NEW', 'DUPLICATE', 'REFINEMENT', 'SUPERSEDES', 'CONFLICTS'] as const;
export type WriteOutcome = (typeof WRITE_OUTCOMES)[number];

/** The decider's audit on the event it decided: the outcome and why, in short codes naming memory ids (never a value). */
export const writeDecisionRecordSchema = z.strictObject({
  outcome: z.enum(WRITE_OUTCOMES),
  reasons: z.array(z.string().min(1).max(300)).max(220),
});
export type WriteDecisionRecord = z.output<typeof writeDecisionRecordSchema>;

/** The sealed entry as recorded, with its id, sequence and the source's trust then; validFrom is always present. */
export const memoryRecordedSchema = z.strictObject({
  memoryId: memoryIdSchema,
  sequence: sequenceSchema,
  ...sealedEntryShape,
  /** The source's effective trust when recorded (audit; decisions use the current trust). */
  trust: trustLevelSchema,
  /** Always present: a statement that names no start is valid from when it was recorded. */
  validFrom: instantSchema,
  /** The write gate's audit (absent: recorded before the gate existed). */
  gate: gateRecordSchema.optional(),
  /** The candidate (MemoryProposed) a reviewer accepted into this entry. */
  proposal: memoryIdSchema.optional(),
  /** Lineage: the entries this one refines (REFINEMENT; each also gets a MemorySuperseded with cause `refinement`). */
  refines: z.array(memoryIdSchema).min(1).optional(),
  /** The decider's audit (absent: recorded before it was kept). */
  decision: writeDecisionRecordSchema.optional(),
  /** An accepted promotion: the private memory this entry is a copy of (issue 19). */
  promotedFrom: promotionOriginSchema.optional(),
});

export const memoryCorroboratedSchema = z.strictObject({
  memoryId: memoryIdSchema,
  source: sourceSchema,
  confidence: z.number().min(0).max(1).optional(),
  corroboratedAt: instantSchema,
  gate: gateRecordSchema.optional(),
  proposal: memoryIdSchema.optional(),
  decision: writeDecisionRecordSchema.optional(),
});

/** refinement: superseded by a more precise statement of the same fact (src/domain/subject/refinement.ts). */
export const SUPERSESSION_CAUSES = ['newer_statement', 'explicit', 'conflict_resolution', 'refinement'] as const;
export type SupersessionCause = (typeof SUPERSESSION_CAUSES)[number];

export const memorySupersededSchema = z.strictObject({
  memoryId: memoryIdSchema,
  supersededBy: memoryIdSchema,
  /** Where the superseded entry's valid window now ends. */
  validTo: instantSchema,
  cause: z.enum(SUPERSESSION_CAUSES),
  supersededAt: instantSchema,
});

export const memoryRetractedSchema = z.strictObject({
  memoryId: memoryIdSchema,
  reason: clearTextSchema,
  retractedAt: instantSchema,
});

export const conflictDetectedSchema = z.strictObject({
  conflictId: conflictIdSchema,
  key: memoryKeySchema,
  scopes: scopesSchema.transform(normaliseScopes),
  /** The disagreeing active entries, in sequence order. */
  memoryIds: z.array(memoryIdSchema).min(2),
  detectedAt: instantSchema,
});

export const conflictResolvedSchema = z.strictObject({
  conflictId: conflictIdSchema,
  winner: memoryIdSchema,
  /** Members superseded by the resolution (each gets a MemorySuperseded in the same batch). */
  losers: z.array(memoryIdSchema),
  reason: clearTextSchema.optional(),
  resolvedAt: instantSchema,
});

export const trustChangedSchema = z.strictObject({
  sourceRef: sourceRefSchema,
  level: trustLevelSchema,
  /** The override it replaces; absent when the ref had none. */
  previousLevel: trustLevelSchema.optional(),
  reason: clearTextSchema.optional(),
  changedAt: instantSchema,
});

/** A ref pattern is an exact source ref, or a prefix when it ends with `*`. */
export const refPatternSchema = z.string().regex(/^[^\s\p{Cc}]{1,512}$/u, { error: 'must be a source ref, or a prefix ending with *' });

export const taintPolicyEscalatedSchema = z.strictObject({
  /** 1, 2, …: each escalation adds to the policy, never removes. */
  policyVersion: sequenceSchema,
  refPatterns: z.array(refPatternSchema),
  sourceTypes: z.array(sourceTypeSchema),
  reason: clearTextSchema,
  escalatedAt: instantSchema,
});

export const memoryExpiredSchema = z.strictObject({
  memoryId: memoryIdSchema,
  expiresAt: instantSchema,
  expiredAt: instantSchema,
});

export const memoryForgottenSchema = z.strictObject({
  memoryId: memoryIdSchema,
  reason: clearTextSchema.optional(),
  forgottenAt: instantSchema,
});

export const subjectForgottenSchema = z.strictObject({
  reason: clearTextSchema.optional(),
  forgottenAt: instantSchema,
});

export const summaryAliasSwitchedSchema = z.strictObject({
  artifactId: artifactIdSchema,
  sourceEpoch: countSchema,
  coversThrough: countSchema,
  previous: aliasTupleSchema.nullable(),
  switchedAt: instantSchema,
});

/** retention: erased by the tenant's retention policy after its archive period. */
export const ERASURE_SCOPES = ['memory', 'subject', 'source_ref', 'retention'] as const;
export type ErasureScope = (typeof ERASURE_SCOPES)[number];

/** One read path the erasure was checked against: ids and counts only, never what was searched for. */
export const erasureCheckSchema = z.strictObject({
  /** e.g. events, artifacts, projection:memory_versions, recall, as_of, replay, lineage. */
  path: z.string().min(1).max(200),
  status: z.enum(['passed', 'failed', 'skipped']),
  /** How many records, items or rows were searched. */
  searched: countSchema,
  /** How many of them still held the content or its hash. */
  findings: countSchema,
  /** Why a check was skipped or failed (names paths and ids only). */
  note: clearTextSchema.optional(),
});

export const erasureVerificationSchema = z.strictObject({
  /** passed: every check that ran found nothing; failed: one found something; not_run: no check ran. */
  status: z.enum(['passed', 'failed', 'not_run']),
  /** What was searched for: the plaintext (when it could still be read before the keys were destroyed) and hashes. */
  searchedFor: z.array(z.enum(['plaintext', 'keyed_hash', 'sha256'])),
  checks: z.array(erasureCheckSchema),
  verifiedAt: instantSchema,
});

/**
 * What an erasure invalidated, for the requester and the audit (DESIGN
 * section 8; seed 003's receipt): ids and counts, who asked and why, never
 * what was erased. The fields after invalidatedArtifactIds came with the
 * erasure pipeline (src/commands/forgetting) and are absent from older receipts.
 */
export const deletionReceiptIssuedSchema = z.strictObject({
  receiptId: receiptIdSchema,
  scope: z.enum(ERASURE_SCOPES),
  memoryIds: z.array(memoryIdSchema),
  destroyedKeyIds: z.array(z.string().min(1).max(256)),
  /** Artifacts whose outputs derive from the erased entries, directly or through parents: their keys are destroyed, they are STALE. */
  invalidatedArtifactIds: z.array(artifactIdSchema),
  /** scope source_ref: the ref whose entries were erased (entries it only corroborated stand on another source and stay). */
  sourceRef: sourceRefSchema.optional(),
  reason: clearTextSchema.optional(),
  /** The actor who asked (the command's actor). */
  requestedBy: clearTextSchema.optional(),
  requestedAt: instantSchema.optional(),
  /** Canonical records erased: memory entries. */
  canonicalRecords: countSchema.optional(),
  /** Derived records invalidated: artifacts (= invalidatedArtifactIds.length). */
  derivedRecordsInvalidated: countSchema.optional(),
  /** Read models that mark the rows erased and drop their ciphertext. */
  indexesUpdated: z.array(z.string().min(1).max(200)).optional(),
  /** Caches that could serve the content and no longer do. */
  cachesInvalidated: z.array(z.string().min(1).max(200)).optional(),
  verification: erasureVerificationSchema.optional(),
  /** Copies of the erased entries promoted into shared namespaces (issue 19), erased with them: each with its own receipt there. */
  promotedCopies: z
    .array(
      z.strictObject({
        subject: subjectIdSchema,
        memoryId: memoryIdSchema,
        /** The copy's receipt on its own stream; absent when the copy was never proposed or was erased before. */
        receiptId: receiptIdSchema.optional(),
        outcome: z.enum(PROMOTED_COPY_OUTCOMES),
      }),
    )
    .optional(),
  issuedAt: instantSchema,
});

export const SUBJECT_EVENT_SCHEMAS = {
  MemoryRecorded: memoryRecordedSchema,
  MemoryCorroborated: memoryCorroboratedSchema,
  MemorySuperseded: memorySupersededSchema,
  MemoryRetracted: memoryRetractedSchema,
  ConflictDetected: conflictDetectedSchema,
  ConflictResolved: conflictResolvedSchema,
  TrustChanged: trustChangedSchema,
  TaintPolicyEscalated: taintPolicyEscalatedSchema,
  MemoryExpired: memoryExpiredSchema,
  MemoryForgotten: memoryForgottenSchema,
  SubjectForgotten: subjectForgottenSchema,
  SummaryAliasSwitched: summaryAliasSwitchedSchema,
  DeletionReceiptIssued: deletionReceiptIssuedSchema,
  ...WRITE_GATE_EVENT_SCHEMAS,
  ...LIFECYCLE_EVENT_SCHEMAS,
  ...FEEDBACK_EVENT_SCHEMAS,
  ...PROMOTION_EVENT_SCHEMAS,
} as const;

export type SubjectEventType = keyof typeof SUBJECT_EVENT_SCHEMAS;
export type SubjectEvent = {
  [T in SubjectEventType]: { readonly type: T; readonly data: z.output<(typeof SUBJECT_EVENT_SCHEMAS)[T]> };
}[SubjectEventType];
export type SubjectEventOf<T extends SubjectEventType> = Extract<SubjectEvent, { type: T }>;
export type SubjectEventData<T extends SubjectEventType> = SubjectEventOf<T>['data'];

/** The events that change what a summary may be built from (DESIGN section 3): each advances inputEpoch by one (see advancesEpoch). */
export const EPOCH_ADVANCING_EVENTS: ReadonlySet<SubjectEventType> = new Set<SubjectEventType>([
  'MemorySuperseded',
  'MemoryRetracted',
  'ConflictDetected',
  'ConflictResolved',
  'TrustChanged',
  'TaintPolicyEscalated',
  'MemoryExpired',
  'MemoryArchived',
  'MemoryForgotten',
  'SubjectForgotten',
]);

/** Whether an event advances inputEpoch: those of EPOCH_ADVANCING_EVENTS, and feedback that opens or closes a review (the memory leaves or rejoins what may be served). */
export function advancesEpoch(event: SubjectEvent): boolean {
  return EPOCH_ADVANCING_EVENTS.has(event.type) || (event.type === 'MemoryFeedbackGiven' && event.data.review !== undefined);
}
