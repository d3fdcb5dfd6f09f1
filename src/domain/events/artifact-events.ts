// Events of an artifact stream `artifact-{artifactId}` (DESIGN section 3).
// Nothing here is ever deleted: failed and rejected artifacts stay for audit.
import { z } from 'zod';
import { TEXT_FACT_KINDS } from '../consolidation/text-facts/fact.js';
import { artifactIdSchema, conflictIdSchema, memoryIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { compactionRecordSchema } from '../compaction/record.js';
import { fenceFailureSchema } from './alias.js';
import { clearTextSchema, countSchema } from './fields.js';
import { manifestSchema } from './manifest.js';
import { keyedHashSchema, sealedSchema } from './sealed.js';

export const artifactGeneratedSchema = z.strictObject({
  artifactId: artifactIdSchema,
  manifest: manifestSchema,
  /** The summarizer's validated JSON output, sealed (it restates personal values). */
  output: sealedSchema,
  /** HMAC-SHA256 (per-subject key) of the output's canonical JSON. */
  outputHash: keyedHashSchema,
  /** The compaction record (v2; upcast from v1's cold tier): anchors, pointers, keep / discard decisions, the rehydration plan and the loss checks. */
  record: compactionRecordSchema,
  /** What the record's anchors say (anchor id -> statement), sealed like the output; absent on upcast records. */
  statements: sealedSchema.optional(),
  generatedAt: instantSchema,
});

export const GATE_FAILURE_CODES = [
  'invalid_output',
  'missing_fact',
  'value_changed',
  'unit_changed',
  'scope_changed',
  'polarity_flipped',
  'missing_derivation',
  'conflicts_differ',
  'conflict_settled',
  'false_new_fact',
  'open_item_dropped',
  'over_budget',
  'uncertainty_settled',
] as const;
export type GateFailureCode = (typeof GATE_FAILURE_CODES)[number];

export const gateFailureSchema = z.strictObject({
  code: z.enum(GATE_FAILURE_CODES),
  /** Names keys and ids only: reasons are stored in clear. */
  message: clearTextSchema,
  memoryId: memoryIdSchema.optional(),
  conflictId: conflictIdSchema.optional(),
  claimKey: z.string().min(1).max(200).optional(),
  /** A fact read from the words (issue 15): its kind, and where in its memory's content or value it was read. Never its value. */
  factKind: z.enum(TEXT_FACT_KINDS).optional(),
  span: z.strictObject({ field: z.enum(['content', 'value']), start: z.number().int().min(0), end: z.number().int().min(0) }).optional(),
});
export type GateFailure = z.output<typeof gateFailureSchema>;

export const gatePassedSchema = z.strictObject({
  artifactId: artifactIdSchema,
  mustPreserveCount: countSchema,
  checkedAt: instantSchema,
});

export const gateFailedSchema = z.strictObject({
  artifactId: artifactIdSchema,
  reasons: z.array(gateFailureSchema).min(1),
  checkedAt: instantSchema,
});

export const generationFailedSchema = z.strictObject({
  artifactId: artifactIdSchema,
  /** What generation was attempted for (kept for audit like any manifest). */
  manifest: manifestSchema.optional(),
  error: z.strictObject({ code: z.string().min(1).max(100), message: clearTextSchema }),
  failedAt: instantSchema,
});

export const consolidationRejectedSchema = z.strictObject({
  artifactId: artifactIdSchema,
  reason: fenceFailureSchema,
  message: clearTextSchema,
  rejectedAt: instantSchema,
});

/** Shadow mode: a reviewer approved a gated artifact; publication may then switch the alias. */
export const artifactApprovedSchema = z.strictObject({
  artifactId: artifactIdSchema,
  approvedBy: clearTextSchema.optional(),
  approvedAt: instantSchema,
});

export const ARTIFACT_EVENT_SCHEMAS = {
  ArtifactGenerated: artifactGeneratedSchema,
  GatePassed: gatePassedSchema,
  GateFailed: gateFailedSchema,
  GenerationFailed: generationFailedSchema,
  ConsolidationRejected: consolidationRejectedSchema,
  ArtifactApproved: artifactApprovedSchema,
} as const;

export type ArtifactEventType = keyof typeof ARTIFACT_EVENT_SCHEMAS;
export type ArtifactEvent = {
  [T in ArtifactEventType]: { readonly type: T; readonly data: z.output<(typeof ARTIFACT_EVENT_SCHEMAS)[T]> };
}[ArtifactEventType];
export type ArtifactEventOf<T extends ArtifactEventType> = Extract<ArtifactEvent, { type: T }>;
