// Counts consolidation outcomes and loss-gate failure reasons as they reach
// the log — whoever did the work (this service's workers, its API, a CLI
// elsewhere) — from the head at start on. Counters start at zero with the
// process, as Prometheus counters do. The same subscription feeds the
// feedback loop's numbers (feedback-metrics.ts).
import { unhandled } from '../../domain/decider/decider.js';
import { ARTIFACT_EVENT_SCHEMAS, type ArtifactEventType } from '../../domain/events/artifact-events.js';
import { ARTIFACT_STREAM_PREFIX, SUBJECT_STREAM_PREFIX } from '../../domain/events/stream-names.js';
import type { EventStore, Position, StoredEvent } from '../../infrastructure/event-store/port.js';
import type { ServiceMetrics } from '../metrics.js';
import { countFeedbackLoop, FEEDBACK_LOOP_EVENTS } from './feedback-metrics.js';

type OutcomeSource = ArtifactEventType | 'SummaryAliasSwitched';

/** Every artifact event but the generation itself, and the switch that publishes. */
const OUTCOME_EVENTS: readonly OutcomeSource[] = [
  ...(Object.keys(ARTIFACT_EVENT_SCHEMAS) as ArtifactEventType[]).filter((type) => type !== 'ArtifactGenerated'),
  'SummaryAliasSwitched',
];

function isOutcomeSource(type: string): type is OutcomeSource {
  return type === 'SummaryAliasSwitched' || Object.prototype.hasOwnProperty.call(ARTIFACT_EVENT_SCHEMAS, type);
}

export function countOutcome(metrics: ServiceMetrics, event: Pick<StoredEvent, 'type' | 'data'>): void {
  if (!isOutcomeSource(event.type)) return;
  const data = (event.data ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : 'unknown');
  const type = event.type;
  switch (type) {
    case 'ArtifactGenerated':
      // Not an outcome yet: the gate's verdict or the failure that follows is.
      break;
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
      unhandled(type);
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
    const subscription = store.subscribeAll({
      ...(after ? { after } : {}),
      // The streams they are in, too: appends to others (recall records) then do not wake it (wakeup-categories.ts).
      filter: {
        streamPrefixes: [SUBJECT_STREAM_PREFIX, ARTIFACT_STREAM_PREFIX],
        eventTypePrefixes: [...OUTCOME_EVENTS, ...FEEDBACK_LOOP_EVENTS],
      },
    });
    const stop = () => void subscription.close();
    signal.addEventListener('abort', stop, { once: true });
    try {
      for await (const event of subscription) {
        after = event.position;
        // The filter matches prefixes: countOutcome counts the exact types only.
        countOutcome(metrics, event);
        countFeedbackLoop(metrics, event);
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
