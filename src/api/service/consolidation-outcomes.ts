// Counts consolidation outcomes and loss-gate failure reasons as they reach
// the log — whoever did the work (this service's workers, its API, a CLI
// elsewhere) — from the head at start on. Counters start at zero with the
// process, as Prometheus counters do.
import type { EventStore, Position, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { ServiceMetrics } from '../metrics.js';

const OUTCOME_EVENTS = [
  'GatePassed',
  'GateFailed',
  'GenerationFailed',
  'ConsolidationRejected',
  'ArtifactApproved',
  'SummaryAliasSwitched',
];

export function countOutcome(metrics: ServiceMetrics, event: Pick<StoredEvent, 'type' | 'data'>): void {
  const data = (event.data ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : 'unknown');
  switch (event.type) {
    case 'GatePassed':
      metrics.consolidationOutcomes.inc({ outcome: 'gate_passed', reason: '' });
      break;
    case 'GateFailed': {
      const codes = Array.isArray(data.reasons) ? data.reasons.map((r) => text((r as { code?: unknown }).code)) : [];
      metrics.consolidationOutcomes.inc({ outcome: 'gate_failed', reason: codes[0] ?? 'unknown' });
      for (const code of new Set(codes)) metrics.gateRejections.inc({ reason: code });
      break;
    }
    case 'GenerationFailed':
      metrics.consolidationOutcomes.inc({
        outcome: 'generation_failed',
        reason: text((data.error as { code?: unknown } | undefined)?.code),
      });
      break;
    case 'ConsolidationRejected':
      metrics.consolidationOutcomes.inc({ outcome: 'rejected', reason: text(data.reason) });
      break;
    case 'ArtifactApproved':
      metrics.consolidationOutcomes.inc({ outcome: 'approved', reason: '' });
      break;
    case 'SummaryAliasSwitched':
      metrics.consolidationOutcomes.inc({ outcome: 'switched', reason: '' });
      break;
    default:
      break;
  }
}

/** Follows the log until `signal` aborts; resubscribes after an error from where it stopped. */
export async function observeConsolidationOutcomes(
  store: EventStore,
  metrics: ServiceMetrics,
  signal: AbortSignal,
  onError: (error: unknown) => void,
): Promise<void> {
  let after: Position | undefined = await store.headPosition();
  while (!signal.aborted) {
    const subscription = store.subscribeAll({ ...(after ? { after } : {}), filter: { eventTypePrefixes: OUTCOME_EVENTS } });
    const stop = () => void subscription.close();
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const event of subscription) {
        after = event.position;
        if (OUTCOME_EVENTS.includes(event.type)) countOutcome(metrics, event);
      }
    } catch (error) {
      if (!signal.aborted) {
        onError(error);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    } finally {
      signal.removeEventListener('abort', stop);
      await subscription.close().catch(() => undefined);
    }
  }
}
