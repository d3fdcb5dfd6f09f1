// Response bodies of the write routes, as the commands return them.
import { z } from 'zod';
import { WRITE_OUTCOMES } from '../../domain/subject/decision.js';

const instantText = z.iso.datetime({ offset: true });

export const recordResultSchema = z.object({
  memoryId: z.string(),
  sequence: z.number().int(),
  decision: z.enum(WRITE_OUTCOMES),
  supersedes: z.array(z.string()),
  conflictId: z.string().optional(),
  revision: z.number().int(),
  recordedAt: instantText,
});

export const lifecycleResultSchema = z.object({
  events: z.array(z.object({ type: z.string(), data: z.unknown() })),
  revision: z.number().int(),
  recordedAt: instantText.nullable(),
  replayed: z.boolean(),
});

export const deletionReceiptSchema = z.object({
  receiptId: z.string(),
  tenant: z.string(),
  subject: z.string(),
  scope: z.enum(['memory', 'subject']),
  memoryIds: z.array(z.string()),
  destroyedKeyIds: z.array(z.string()),
  invalidatedArtifactIds: z.array(z.string()),
  issuedAt: z.string(),
  revision: z.number().int(),
  recordedAt: instantText,
});

export const importResultSchema = z.object({
  lines: z.number().int(),
  decisions: z.record(z.enum(WRITE_OUTCOMES), z.number().int()),
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
