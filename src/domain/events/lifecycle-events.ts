// The lifecycle sweeper's events on the subject stream (issue 18 item 3):
// active -> demoted (still the slot's value, not served unless asked for),
// demoted -> active again (MemoryRestored), and active or demoted ->
// archived by capacity (never served, kept for audit: log, replay, as-of,
// lineage). Each names the rule and the lifecycle policy version it was
// decided under, so that a replay reads why.
import { z } from 'zod';
import { DEMOTION_REASONS } from '../lifecycle/plan.js';
import { memoryIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { clearTextSchema, countSchema } from './fields.js';

const ruleSchema = z.string().regex(/^[a-zA-Z][a-zA-Z0-9_.-]{0,99}$/);

export const memoryDemotedSchema = z.strictObject({
  memoryId: memoryIdSchema,
  reason: z.enum(DEMOTION_REASONS),
  rule: ruleSchema,
  /** The lifecycle policy version (0: the built-in default). */
  policyVersion: countSchema,
  /** The instant the memory had been unreinforced since. */
  lastReinforcedAt: instantSchema,
  demotedAt: instantSchema,
});

/** What brought a demoted memory back: the same statement written again, a reviewer or admin, or feedback (used, confirmed). */
export const RESTORE_REASONS = ['rewritten', 'restored', 'feedback'] as const;
export type RestoreReason = (typeof RESTORE_REASONS)[number];

export const memoryRestoredSchema = z.strictObject({
  memoryId: memoryIdSchema,
  reason: z.enum(RESTORE_REASONS),
  note: clearTextSchema.optional(),
  restoredAt: instantSchema,
});

export const memoryArchivedSchema = z.strictObject({
  memoryId: memoryIdSchema,
  reason: z.literal('capacity'),
  rule: ruleSchema,
  policyVersion: countSchema,
  /** Its value when archived (decay x confidence x usefulness): the lowest went first. */
  value: z.number().min(0),
  archivedAt: instantSchema,
});

export const LIFECYCLE_EVENT_SCHEMAS = {
  MemoryDemoted: memoryDemotedSchema,
  MemoryRestored: memoryRestoredSchema,
  MemoryArchived: memoryArchivedSchema,
} as const;
