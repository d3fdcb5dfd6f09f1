// The compaction record (seed 002, issue 23): what an artifact hands the
// next reader, so that it can continue safely or know why it must stop — the
// stage and its boundaries, stable fact anchors, evidence pointers, keep /
// discard decisions, a rehydration plan and the loss checks. This clear part
// names ids, keys, kinds, versions and refs only; what the anchors say
// (personal values) is sealed apart (ArtifactGenerated.statements).
import { z } from 'zod';
import { sourceRefSchema } from '../entry/source.js';
import { countSchema, sequenceSchema } from '../events/fields.js';
import { artifactIdSchema, conflictIdSchema, memoryIdSchema } from '../values/ids.js';

/** The record contract a reader checks before continuing; v0 is an artifact written before records existed (upcast). */
export const COMPACTION_RECORD_VERSION = 'compaction-record-v1';
export const LEGACY_RECORD_VERSION = 'compaction-record-v0';

/** What made the consolidation happen: a count of new entries (schedule), or a boundary named by the caller. */
export const COMPACTION_TRIGGERS = ['schedule', 'handoff', 'phase', 'branch'] as const;
export type CompactionTrigger = (typeof COMPACTION_TRIGGERS)[number];

export const ANCHOR_KINDS = ['stage', 'contract', 'scope', 'constraint', 'decision', 'open_item', 'conflict', 'unknown'] as const;
export type AnchorKind = (typeof ANCHOR_KINDS)[number];

export const POINTER_KINDS = ['manifest', 'memory_version', 'source_ref', 'conflict'] as const;
export const POINTER_PURPOSES = ['contract', 'evidence', 'provenance', 'dispute'] as const;

/** Why an input is not in the summary. Every one is recoverable: the raw entry stays in the log and is served by recall under its own rules. */
export const DISCARD_CATEGORIES = ['over_token_budget', 'flagged_untrusted', 'above_summary_ceiling'] as const;
export type DiscardCategory = (typeof DISCARD_CATEGORIES)[number];

export const KEEP_REASONS = ['must_preserve', 'uncertain', 'stated'] as const;

/** What makes a reader stop instead of continuing (the continue checks of `assess`). */
export const STOP_CONDITIONS = [
  'identity_mismatch',
  'contract_changed',
  'anchor_missing',
  'pointer_broken',
  'input_unreadable',
  'input_superseded',
  'discard_without_reason',
] as const;

const idText = z.string().min(1).max(300);
const reasonText = z.string().min(1).max(300);

export const anchorSchema = z.strictObject({
  /** Derived from what it anchors (`fact:m-91`, `conflict:c-7`, `scope:project=p1`): the same inputs give the same ids. */
  id: idText,
  kind: z.enum(ANCHOR_KINDS),
  /** uncertain: low confidence, an open conflict or an unverified model inference; never to be read as settled. */
  status: z.enum(['settled', 'uncertain']),
  /** Rests on memory versions that may change (supersession, retraction, expiry): refreshed before continuing. */
  volatile: z.boolean(),
  key: z.string().min(1).max(200).optional(),
  pointerIds: z.array(idText).min(1),
});
export type Anchor = z.output<typeof anchorSchema>;

export const pointerSchema = z.strictObject({
  id: idText,
  kind: z.enum(POINTER_KINDS),
  purpose: z.enum(POINTER_PURPOSES),
  memoryId: memoryIdSchema.optional(),
  /** memory_version and source_ref: the version pointed at, by the entry's sequence (an entry never changes; a new statement is a new memory). Its keyed hash stays in the manifest: read paths never return hashes of what may be erased. */
  sequence: sequenceSchema.optional(),
  ref: sourceRefSchema.optional(),
  conflictId: conflictIdSchema.optional(),
  artifactId: artifactIdSchema.optional(),
});
export type Pointer = z.output<typeof pointerSchema>;

export const discardSchema = z.strictObject({
  memoryId: memoryIdSchema,
  category: z.enum(DISCARD_CATEGORIES),
  reason: reasonText,
  recoverable: z.boolean(),
  pointerId: idText,
});
export type Discard = z.output<typeof discardSchema>;

export const lossCheckSchema = z.strictObject({ check: idText, passed: z.boolean() });
export type LossCheck = z.output<typeof lossCheckSchema>;

export const compactionRecordSchema = z.strictObject({
  version: z.enum([COMPACTION_RECORD_VERSION, LEGACY_RECORD_VERSION]),
  /** (1) the stage: why it was compacted, what it covers; the summary text itself is the sealed output's. */
  stage: z.strictObject({
    trigger: z.enum(COMPACTION_TRIGGERS),
    runId: idText.optional(),
    fromSequence: countSchema,
    throughSequence: countSchema,
    inputEpoch: countSchema,
    parentArtifactId: artifactIdSchema.nullable(),
  }),
  /** (2) stable fact anchors, sorted by id. */
  anchors: z.array(anchorSchema),
  /** (3) evidence pointers, sorted by id. */
  pointers: z.array(pointerSchema),
  /** (4) keep / discard decisions, by memory id. */
  keeps: z.array(z.strictObject({ memoryId: memoryIdSchema, reason: z.enum(KEEP_REASONS) })),
  discards: z.array(discardSchema),
  /** (5) the rehydration plan. */
  rehydration: z.strictObject({
    /** Anchors to verify before relying on them (uncertain ones). */
    verify: z.array(idText),
    /** Anchors to re-read from their pointers before continuing (volatile ones). */
    refresh: z.array(idText),
    stopIf: z.array(z.enum(STOP_CONDITIONS)),
    /** Who continues: the next reader of this subject; on a stop, a reviewer (`assess` says which outcome). */
    continueBy: z.enum(['next_reader', 'handoff_recipient']),
    onStop: z.literal('reviewer'),
  }),
  /** (6) the loss checks and whether each passed. */
  lossChecks: z.array(lossCheckSchema),
});
export type CompactionRecord = z.output<typeof compactionRecordSchema>;

/** What the sealed statements field holds: anchor id -> what the anchor says. */
export const anchorStatementsSchema = z.record(z.string(), z.string().max(20_000));
export type AnchorStatements = z.output<typeof anchorStatementsSchema>;
