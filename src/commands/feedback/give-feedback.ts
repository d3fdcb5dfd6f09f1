// Feedback on a served memory (issue 18 item 2): checked against the recall
// that served it (the recall stream's record: an unknown recall, or a memory
// that recall did not serve, is bad input naming the field, and nothing is
// appended), then decided on the subject stream (MemoryFeedbackGiven)
// through the one command loop, so a retry under the same idempotency key
// is answered from the log (replayed).
import { z } from 'zod';
import { sourceRefSchema } from '../../domain/entry/source.js';
import { recallIdSchema } from '../../domain/events/recall-events.js';
import type { Result } from '../../domain/result/result.js';
import { FEEDBACK_SOURCES, FEEDBACK_TYPES } from '../../domain/usage/usage.js';
import { fieldMessage, InvalidInput, parseWith } from '../../domain/validation/invalid-input.js';
import { memoryIdSchema } from '../../domain/values/ids.js';
import { findRecall } from '../../reads/recalls/recall-records.js';
import type { CommandContext, Ledger } from '../ledger.js';
import { runLifecycleCommand, type LifecycleResult } from '../lifecycle.js';

/** The one schema of a feedback request (HTTP body, CLI flags, MCP tool, client). */
export const feedbackInputSchema = z.strictObject({
  recallId: recallIdSchema,
  memoryId: memoryIdSchema,
  type: z.enum(FEEDBACK_TYPES, { error: fieldMessage(`must be one of ${FEEDBACK_TYPES.join(', ')}`) }),
  source: z.enum(FEEDBACK_SOURCES, { error: fieldMessage(`must be one of ${FEEDBACK_SOURCES.join(', ')}`) }).default('user'),
  /** Refs to what shows it (a ticket, a message, a test run): stored in clear, so refs only. */
  evidence: z.array(sourceRefSchema).max(32).default([]),
});
export type FeedbackInput = z.input<typeof feedbackInputSchema>;

export async function giveFeedback(ledger: Ledger, context: CommandContext, input: unknown): Promise<Result<LifecycleResult>> {
  const parsed = parseWith(feedbackInputSchema, input);
  if (!parsed.ok) throw parsed.error;
  const { recallId, memoryId, type, source, evidence } = parsed.value;
  const found = await findRecall(ledger.eventStore, context, recallId);
  if (!found) throw new InvalidInput('recallId', `no recall ${recallId} was recorded for ${context.tenant}/${context.subject}`);
  const served = found.recall.items.flatMap((i) => i.memories).find((m) => m.memoryId === memoryId);
  if (!served) throw new InvalidInput('memoryId', `memory ${memoryId} was not served by recall ${recallId}`);
  return runLifecycleCommand(ledger, context, {
    type: 'GiveFeedback',
    memoryId,
    memoryVersion: served.version,
    recallId,
    feedback: type,
    source,
    evidenceRefs: evidence,
  });
}

/** A reviewer reinstates a memory under review: their confirmation ends the review (no recall is involved). */
export const reinstateMemory = (ledger: Ledger, context: CommandContext, memoryId: string) =>
  runLifecycleCommand(ledger, context, {
    type: 'GiveFeedback',
    memoryId,
    feedback: 'confirmed',
    source: 'human_reviewer',
    evidenceRefs: [],
  });
