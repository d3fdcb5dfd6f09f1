// What a promotion asks (issue 19 item 3), as every boundary takes it (CLI,
// HTTP, the library): which memory of the source subject, into which shared
// namespace, and why. The reason is stored in clear: it names no content.
import { z } from 'zod';
import { clearTextSchema } from '../events/fields.js';
import { parseWith } from '../validation/invalid-input.js';
import { memoryIdSchema, subjectIdSchema } from '../values/ids.js';
import { isShared, namespaceOf } from './namespace.js';

export const SHARED_NAMESPACE_RULE = 'must be a shared namespace (team:<id> or project:<id>)';

export const sharedNamespaceSchema = subjectIdSchema.refine((s) => isShared(namespaceOf(s)), { error: SHARED_NAMESPACE_RULE });

export const promoteRequestSchema = z.strictObject(
  {
    memoryId: memoryIdSchema,
    to: sharedNamespaceSchema,
    reason: clearTextSchema,
  },
  { error: 'must be an object with memoryId, to and reason' },
);
export type PromoteRequest = z.output<typeof promoteRequestSchema>;

/** Validates a promotion request (throws InvalidInput naming the field). */
export function requirePromoteRequest(input: unknown): PromoteRequest {
  const parsed = parseWith(promoteRequestSchema, input);
  if (!parsed.ok) throw parsed.error;
  return parsed.value;
}
