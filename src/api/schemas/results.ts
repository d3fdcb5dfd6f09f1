// Response bodies of the write routes, as the commands return them.
import { PROMOTED_COPY_OUTCOMES } from '../../domain/events/promotion-events.js';
import { z } from 'zod';
import { gateRecordSchema } from '../../domain/events/write-gate-events.js';
import { ERASURE_SCOPES } from '../../domain/events/subject-events.js';
import { WRITE_OUTCOMES } from '../../domain/subject/decision.js';

const instantText = z.iso.datetime({ offset: true });

export const recordResultSchema = z.object({
  memoryId: z.string(),
  sequence: z.number().int(),
  decision: z.enum([...WRITE_OUTCOMES, 'CANDIDATE']),
  /** The write gate: the policy version, the rule that decided, and why (absent on a replay). */
  gate: gateRecordSchema.optional(),
  supersedes: z.array(z.string()),
  /** REFINEMENT: the superseded entries the new one states more precisely (lineage). */
  refines: z.array(z.string()).optional(),
  /** The write decision's reasons, in codes naming memory ids (never a value). */
  reasons: z.array(z.string()),
  conflictId: z.string().optional(),
  revision: z.number().int(),
  recordedAt: instantText,
  /** The Idempotency-Key had been used for this very request: nothing was appended now. */
  replayed: z.boolean(),
});

export const lifecycleResultSchema = z.object({
  events: z.array(z.object({ type: z.string(), data: z.unknown() })),
  revision: z.number().int(),
  recordedAt: instantText.nullable(),
  replayed: z.boolean(),
});

/** An erasure's verification: per read path, what was searched and what still held the content (never the content). */
export const erasureVerificationResultSchema = z.object({
  status: z.enum(['passed', 'failed', 'not_run']),
  searchedFor: z.array(z.enum(['plaintext', 'keyed_hash', 'sha256'])),
  checks: z.array(
    z.object({
      path: z.string(),
      status: z.enum(['passed', 'failed', 'skipped']),
      searched: z.number().int(),
      findings: z.number().int(),
      note: z.string().optional(),
    }),
  ),
  verifiedAt: instantText,
});

/** Seed 003's receipt: ids, counts of canonical and derived records, indexes and caches, verification. */
export const deletionReceiptSchema = z.object({
  receiptId: z.string(),
  tenant: z.string(),
  subject: z.string(),
  scope: z.enum(ERASURE_SCOPES),
  memoryIds: z.array(z.string()),
  destroyedKeyIds: z.array(z.string()),
  invalidatedArtifactIds: z.array(z.string()),
  sourceRef: z.string().optional(),
  reason: z.string().optional(),
  requestedBy: z.string().optional(),
  requestedAt: instantText.optional(),
  canonicalRecords: z.number().int().optional(),
  derivedRecordsInvalidated: z.number().int().optional(),
  indexesUpdated: z.array(z.string()).optional(),
  cachesInvalidated: z.array(z.string()).optional(),
  verification: erasureVerificationResultSchema.optional(),
  /** Copies promoted from the erased entries into shared namespaces, erased with them (each with its own receipt there). */
  promotedCopies: z
    .array(
      z.object({ subject: z.string(), memoryId: z.string(), receiptId: z.string().optional(), outcome: z.enum(PROMOTED_COPY_OUTCOMES) }),
    )
    .optional(),
  issuedAt: z.string(),
  revision: z.number().int(),
  recordedAt: instantText,
});

export const subjectReceiptsSchema = z.object({
  tenant: z.string(),
  subject: z.string(),
  receipts: z.array(deletionReceiptSchema),
});

export const sourceRefErasureEverywhereSchema = z.object({
  tenant: z.string(),
  sourceRef: z.string(),
  subjectsSearched: z.number().int(),
  receipts: z.array(deletionReceiptSchema),
  alreadyErased: z.array(z.string()),
  refused: z.array(z.object({ subject: z.string(), code: z.string(), message: z.string() })),
});

export const erasureReverificationSchema = z.object({
  tenant: z.string(),
  subject: z.string(),
  receiptId: z.string(),
  verification: erasureVerificationResultSchema,
});

export const importResultSchema = z.object({
  lines: z.number().int(),
  decisions: z.record(z.enum([...WRITE_OUTCOMES, 'CANDIDATE']), z.number().int()),
  alreadyImported: z.number().int(),
  rejected: z.array(z.looseObject({ line: z.number().int(), code: z.string(), message: z.string(), field: z.string().optional() })),
  batches: z.number().int(),
  revision: z.number().int(),
});

export const openConflictSchema = z.object({
  conflictId: z.string(),
  key: z.string(),
  scopes: z.record(z.string(), z.string()),
  memoryIds: z.array(z.string()),
});

export const decodedEventSchema = z.object({
  revision: z.number().int(),
  position: z.string(),
  recordedAt: instantText,
  id: z.string(),
  type: z.string(),
  data: z.unknown(),
  metadata: z.looseObject({ schemaVersion: z.number().int() }),
});
