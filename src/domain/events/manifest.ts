// The manifest of a consolidation (DESIGN section 4, step 2): everything
// needed to check, reproduce and fence an artifact.
import { z } from 'zod';
import { artifactIdSchema, conflictIdSchema, memoryIdSchema, subjectIdSchema, tenantIdSchema } from '../values/ids.js';
import { aliasTupleSchema } from './alias.js';
import { countSchema, sequenceSchema, sha256HexSchema } from './fields.js';
import { keyedHashSchema } from './sealed.js';
import { COMPACTION_TRIGGERS } from '../compaction/record.js';

export const manifestInputSchema = z.strictObject({
  memoryId: memoryIdSchema,
  sequence: sequenceSchema,
  valueHash: keyedHashSchema,
  contentHash: keyedHashSchema.optional(),
});
export type ManifestInput = z.output<typeof manifestInputSchema>;

const versionText = z.string().min(1).max(200);

export const manifestSchema = z.strictObject({
  artifactId: artifactIdSchema,
  tenant: tenantIdSchema,
  subject: subjectIdSchema,
  /** = H at the snapshot. */
  newCoversThrough: countSchema,
  inputEpoch: countSchema,
  expectedAlias: aliasTupleSchema.nullable(),
  inputs: z.array(manifestInputSchema),
  /** sha256 of the RFC 8785 form of the inputs (see canonical/input-root.ts). */
  inputRoot: sha256HexSchema,
  /** The open conflicts the artifact was built with. */
  conflictIds: z.array(conflictIdSchema),
  parentArtifactId: artifactIdSchema.nullable(),
  selectorVersion: versionText,
  promptVersion: versionText,
  modelSnapshot: versionText,
  /** Why it was compacted (issue 23): a phase boundary, a hand-off, a branch, or the schedule; absent on manifests before it was recorded (the schedule). */
  trigger: z
    .strictObject({
      reason: z.enum(COMPACTION_TRIGGERS),
      /** The run or task the compaction belongs to, checked by `assess` when the reader names one. */
      runId: z.string().min(1).max(200).optional(),
    })
    .optional(),
});
export type Manifest = z.output<typeof manifestSchema>;
