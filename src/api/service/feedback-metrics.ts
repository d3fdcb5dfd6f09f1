// The feedback loop's numbers (issue 18 item 5): memories served
// (RecallServed, stale ones apart) as this service records its recalls,
// and, counted from the log as events reach it, whoever appended them,
// feedback by type and source (MemoryFeedbackGiven) and how long a verified
// deletion receipt took from its request. Recall records are counted where
// they are made, not read back: every recall appends one (4-20 KB), and
// reading each back whole cost the service as much as a third of a recall.
import type { StoredEvent } from '../../infrastructure/event-store/port.js';
import type { ServiceMetrics } from '../metrics.js';

/** The events counted from the log. */
export const FEEDBACK_LOOP_EVENTS = ['MemoryFeedbackGiven', 'DeletionReceiptIssued'] as const;

interface Served {
  readonly items?: ReadonlyArray<{ readonly memories?: readonly unknown[]; readonly reasons?: ReadonlyArray<{ readonly code?: unknown }> }>;
}

/** Counts the memories a recall record served (any other event counts nothing here). */
export function countServedRecall(metrics: ServiceMetrics, event: Pick<StoredEvent, 'type' | 'data'>): void {
  if (event.type !== 'RecallServed') return;
  for (const item of ((event.data ?? {}) as Served).items ?? []) {
    const stale = (item.reasons ?? []).some((r) => r.code === 'stale');
    metrics.recallServed.inc({ stale: String(stale) }, item.memories?.length ?? 0);
  }
}

/** Counts an event of the log (FEEDBACK_LOOP_EVENTS). */
export function countFeedbackLoop(metrics: ServiceMetrics, event: Pick<StoredEvent, 'type' | 'data'>): void {
  const data = (event.data ?? {}) as Record<string, unknown>;
  if (event.type === 'MemoryFeedbackGiven') {
    metrics.feedback.inc({ type: String(data.type), source: String(data.source) });
  } else if (event.type === 'DeletionReceiptIssued') {
    const verification = data.verification as { status?: unknown; verifiedAt?: unknown } | undefined;
    const requested = typeof data.requestedAt === 'string' ? Date.parse(data.requestedAt) : NaN;
    const verified = typeof verification?.verifiedAt === 'string' ? Date.parse(verification.verifiedAt) : NaN;
    // Receipts from before the pipeline recorded its request time, or not verified, have no duration.
    if (verification?.status === 'passed' && Number.isFinite(requested) && Number.isFinite(verified))
      metrics.erasureVerified.observe(Math.max(0, verified - requested) / 1000);
  }
}
