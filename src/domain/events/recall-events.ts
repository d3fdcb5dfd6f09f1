// The recall stream `recall-{tenant}/{subject}` (issue 18 item 1): one
// RecallServed per recall answer, recorded before the answer is returned, so
// that an auditor can see which memories a run was given, where and why
// (seed 001 I). Content-free: ids, versions, kinds, key names, positions,
// scores and reason codes; the query is personal data and is sealed so that
// erasing the subject or any memory it served shreds it (sealedQuerySchema).
// A stream of its own, not the subject's: a read must not move the subject's
// revision (consolidation appends at an expected revision).
import { z } from 'zod';
import { purposeSchema } from '../entry/purposes.js';
import { scopesSchema } from '../entry/scopes.js';
import { memoryKindSchema, sensitivitySchema } from '../entry/vocabulary.js';
import { artifactIdSchema, conflictIdSchema, idSchema, memoryIdSchema } from '../values/ids.js';
import { instantSchema } from '../values/instant-schema.js';
import { countSchema, sequenceSchema } from './fields.js';
import { sealedSchema } from './sealed.js';

export const recallIdSchema = idSchema();

/**
 * The question, sealed under a key of its own that is stored nowhere: it is
 * the XOR of the shares, one sealed under the subject's data key and one
 * under the key of each memory the recall served. Destroying any of those
 * keys (forgetting the subject, or one of the memories) leaves it unreadable.
 */
export const sealedQuerySchema = z.strictObject({
  text: sealedSchema,
  shares: z.array(z.strictObject({ memoryId: memoryIdSchema.optional(), share: sealedSchema })).min(1),
});
export type SealedQuery = z.output<typeof sealedQuerySchema>;

const servedMemorySchema = z.strictObject({ memoryId: memoryIdSchema, version: sequenceSchema });

/** One served item at its position: what it stands for, and why it ranked there (codes and contributions, never terms). */
export const servedItemSchema = z.strictObject({
  position: sequenceSchema,
  type: z.enum(['memory', 'claim', 'open_item', 'conflict']),
  /** The memories the item shows: the memory itself, a claim's sources, a conflict's readable sides. */
  memories: z.array(servedMemorySchema),
  kind: memoryKindSchema.optional(),
  key: z.string().min(1).max(300).optional(),
  conflictId: conflictIdSchema.optional(),
  artifactId: artifactIdSchema.optional(),
  tokens: countSchema,
  score: z.number().optional(),
  rank: sequenceSchema.optional(),
  reasons: z
    .array(z.strictObject({ code: z.string().min(1).max(64), contribution: z.number() }))
    .max(64)
    .optional(),
});
export type ServedItem = z.output<typeof servedItemSchema>;

export const recallServedSchema = z.strictObject({
  recallId: recallIdSchema,
  /** The subject stream's revision the answer reflects (null: nothing of the subject was read). */
  subjectRevision: z.number().int().min(0).nullable(),
  inputEpoch: countSchema,
  source: z.enum(['summary', 'raw']),
  reason: z.string().min(1).max(64),
  parameters: z.strictObject({
    scopes: scopesSchema,
    maxSensitivity: sensitivitySchema,
    /** The reader's purpose, when it named one. */
    purpose: purposeSchema.optional(),
    budget: z.number().int().min(1).nullable(),
    /** The "now" validity and expiry were judged at. */
    now: instantSchema,
    /** Whether a question was asked; the question itself only sealed. */
    asked: z.boolean(),
    /** Absent without a question, or when the subject has no key (nothing was ever recorded, or it was forgotten). */
    query: sealedQuerySchema.optional(),
    topK: sequenceSchema.optional(),
    key: z.string().min(1).max(300).optional(),
    kind: memoryKindSchema.optional(),
    minScore: z.number().min(0).optional(),
  }),
  items: z.array(servedItemSchema),
  /** Items left out by the token budget. */
  omitted: countSchema,
  /** Active entries the hard filters left out, by reason. */
  excluded: z.record(z.string(), countSchema),
  servedAt: instantSchema,
});

export const RECALL_EVENT_SCHEMAS = { RecallServed: recallServedSchema } as const;

export type RecallEvent = { readonly type: 'RecallServed'; readonly data: z.output<typeof recallServedSchema> };
export type RecallServed = RecallEvent['data'];
