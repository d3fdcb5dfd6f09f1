// The summary alias (which artifact reads are served from) and the reasons a
// switch of it can be refused (DESIGN section 4, step 5).
import { z } from 'zod';
import { artifactIdSchema } from '../values/ids.js';

const count = z
  .number({ error: 'must be a whole number' })
  .int({ error: 'must be a whole number' })
  .min(0, { error: 'must not be negative' });

export const aliasTupleSchema = z.strictObject({
  artifactId: artifactIdSchema,
  /** The subject's inputEpoch the artifact was built at. */
  sourceEpoch: count,
  /** The highest sequence the artifact covers. */
  coversThrough: count,
});
export type AliasTuple = z.output<typeof aliasTupleSchema>;

export function sameAlias(a: AliasTuple | null, b: AliasTuple | null): boolean {
  if (a === null || b === null) return a === b;
  return a.artifactId === b.artifactId && a.sourceEpoch === b.sourceEpoch && a.coversThrough === b.coversThrough;
}

export const FENCE_FAILURES = [
  'subject_forgotten',
  'epoch_changed',
  'alias_changed',
  'input_not_active',
  'input_hash_changed',
  'new_conflict',
  'coverage_regressed',
  'coverage_beyond_head',
] as const;
export type FenceFailure = (typeof FENCE_FAILURES)[number];
export const fenceFailureSchema = z.enum(FENCE_FAILURES);
