// An entry after the caller sealed its personal fields: value and content as
// ciphertext, plus keyed hashes of their canonical plaintext for dedup and
// fences. This is what commands carry and MemoryRecorded stores.
import { z } from 'zod';
import { keyedHashSchema, sealedSchema, type Sealed } from '../events/sealed.js';
import { valueTypeSchema } from '../values/value.js';
import type { MemoryEntry } from './entry.js';
import { sharedClearShape } from './clear-shape.js';
import { OPTIONAL_CLEAR_FIELDS, presentFields } from './fields.js';
import { memoryKeySchema } from './key.js';
import { normaliseScopes, scopesSchema } from './scopes.js';
import { sourceSchema } from './source.js';
import { memoryKindSchema, polaritySchema, sensitivitySchema } from './vocabulary.js';

/** The sealed entry's fields, in order: MemoryRecorded's schema derives from them too. */
export const sealedEntryShape = {
  kind: memoryKindSchema,
  key: memoryKeySchema,
  valueType: valueTypeSchema,
  /** HMAC-SHA256 (per-subject key) of canonicalValueJson(value). */
  valueHash: keyedHashSchema,
  value: sealedSchema,
  polarity: polaritySchema,
  content: sealedSchema.optional(),
  /** HMAC-SHA256 (per-subject key) of the content text, when there is content. */
  contentHash: keyedHashSchema.optional(),
  /** The JSON array of anticipated queries, sealed (field `anticipatedQueries`). */
  anticipatedQueries: sealedSchema.optional(),
  source: sourceSchema,
  confidence: z.number().min(0).max(1).optional(),
  sensitivity: sensitivitySchema,
  scopes: scopesSchema.transform(normaliseScopes),
  ...sharedClearShape,
};

export const sealedEntrySchema = z.strictObject(sealedEntryShape);
export type SealedEntry = z.output<typeof sealedEntrySchema>;

export interface Sealing {
  readonly value: Sealed;
  readonly valueHash: string;
  readonly content?: Sealed;
  readonly contentHash?: string;
  readonly anticipatedQueries?: Sealed;
}

/** Puts a parsed entry and the caller's sealing together; the plaintext value and content do not survive. */
export function toSealedEntry(entry: MemoryEntry, sealing: Sealing): SealedEntry {
  if ((entry.content === undefined) !== (sealing.content === undefined)) {
    throw new TypeError('content must be sealed exactly when the entry has content');
  }
  if ((entry.anticipatedQueries === undefined) !== (sealing.anticipatedQueries === undefined)) {
    throw new TypeError('anticipated queries must be sealed exactly when the entry has them');
  }
  const sealed: SealedEntry = {
    kind: entry.kind,
    key: entry.key,
    valueType: entry.value.type,
    valueHash: sealing.valueHash,
    value: sealing.value,
    polarity: entry.polarity,
    source: entry.source,
    sensitivity: entry.sensitivity,
    scopes: normaliseScopes(entry.scopes),
  };
  return {
    ...sealed,
    ...(sealing.content !== undefined ? { content: sealing.content } : {}),
    ...(sealing.contentHash !== undefined ? { contentHash: sealing.contentHash } : {}),
    ...(sealing.anticipatedQueries !== undefined ? { anticipatedQueries: sealing.anticipatedQueries } : {}),
    ...presentFields(entry, OPTIONAL_CLEAR_FIELDS),
  };
}
