// What the client sends and receives, derived from the zod schemas the routes
// validate with (src/api/routes, src/api/schemas) and, where a route's
// response schema is deliberately open (recall, as-of), from the query's own
// answer type. Type-only: nothing of the server is loaded at run time.
import type { z } from 'zod';
import type { asOfQuery, replayQuery } from '../api/routes/reads.js';
import type {
  deletionReceiptSchema,
  lifecycleResultSchema,
  openConflictSchema,
  recordResultSchema,
  subjectReceiptsSchema,
} from '../api/schemas/results.js';
import type { entrySchema } from '../domain/entry/entry.js';
import type { BeliefAnswer } from '../queries/belief.js';
import type { RecallAnswer } from '../queries/recall/recall.js';
import type { recallOptionsSchema } from '../queries/recall/request.js';
import type { RecallAudit } from '../queries/recalls/show-recall.js';
import type { FeedbackInput } from '../commands/feedback/give-feedback.js';
import type { PromotionResult } from '../commands/promotion/promote-memory.js';
import type { PromoteRequest } from '../domain/namespace/promotion-request.js';

/** A memory entry as POST /memories takes it (the CLI's --entry). */
export type EntryInput = z.input<typeof entrySchema>;
export type RecordResult = z.output<typeof recordResultSchema>;
export type LifecycleResult = z.output<typeof lifecycleResultSchema>;
export type OpenConflict = z.output<typeof openConflictSchema>;
export type DeletionReceipt = z.output<typeof deletionReceiptSchema>;
export type SubjectReceipts = z.output<typeof subjectReceiptsSchema>;

/** Recall's options: scopes, sensitivity ceiling, budget, now, and with a query topK, key, kind, minScore. */
export type RecallOptions = z.input<typeof recallOptionsSchema>;
/** Every answer carries `recallId`: what it served is recorded under it (feedback names it). */
export type { RecallAnswer, BeliefAnswer, FeedbackInput, RecallAudit, PromotionResult };
/** Where a promotion goes and why (the memory is the call's argument). */
export type PromotionInput = Omit<PromoteRequest, 'memoryId'>;
export type RecallItem = RecallAnswer['items'][number];

export type AsOfQuery = z.input<typeof asOfQuery>;
export type ReplayQuery = z.input<typeof replayQuery>;

export interface WriteOptions {
  /** Sent as Idempotency-Key: a retry with the same key is answered once (`replayed: true`). */
  readonly idempotencyKey?: string;
}
