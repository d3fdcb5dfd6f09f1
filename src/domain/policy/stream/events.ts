// The tenant's write-policy stream `write-policy-{tenant}`: each `policy set`
// appends the next version, the document as it was given (durations in ISO
// 8601, as `policy show` prints it), so that the log reads back exactly what
// was decided under. Nothing is ever removed: the audit names a version.
import { z } from 'zod';
import { sequenceSchema } from '../../events/fields.js';
import { instantSchema } from '../../values/instant-schema.js';
import { writePolicySchema } from '../policy-document.js';

const policyDocumentSchema = z
  .record(z.string(), z.unknown())
  .refine((document) => writePolicySchema.safeParse(document).success, { error: 'must be a valid write policy document' });

export const writePolicySetSchema = z.strictObject({
  /** 1, 2, …: the version every verdict under it names (0 is the built-in default). */
  version: sequenceSchema,
  document: policyDocumentSchema,
  setAt: instantSchema,
});

export const POLICY_EVENT_SCHEMAS = { WritePolicySet: writePolicySetSchema } as const;

export type PolicyEvent = { readonly type: 'WritePolicySet'; readonly data: z.output<typeof writePolicySetSchema> };
