// The service's Prometheus metrics (GET /metrics), on a registry of its own
// so that several services in one process (tests) do not collide:
//   memledger_http_request_duration_seconds{method,route,status}
//   memledger_event_store_append_seconds{stream,outcome}   append latency (stream: subject, recall, artifact = the rest)
//   memledger_projection_lag_events{projection}            events not yet applied
//   memledger_projection_lag_seconds{projection}           age of the oldest of them
//   memledger_projection_faults{projection}                events it could not apply (passed over)
//   memledger_consolidation_outcomes_total{outcome,reason}
//   memledger_gate_rejections_total{reason}
//   memledger_write_gate_decisions_total{decision,rule}   writes accepted / held as candidates / rejected, by deciding rule
//   memledger_recall_source_total{source,reason}           summary vs raw
//   memledger_recall_served_total{stale}                   memories recalls served (stale: ranked with the stale reason)
//   memledger_feedback_total{type,source}                  feedback given (issue 18)
//   memledger_retrieval_hit_ratio                          used / served since start
//   memledger_stale_use_ratio                              stale served / served since start
//   memledger_correction_ratio                             corrected / served since start
//   memledger_erasure_verified_seconds                     from an erasure's request to its verified receipt
// plus Node's process metrics (memledger_process_*, memledger_nodejs_*).
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ProjectionHealth } from './services.js';

export interface MetricsOptions {
  /** Measures projection lag at scrape time. */
  readonly projectionLag?: () => Promise<readonly ProjectionHealth[]>;
  readonly processMetrics?: boolean;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class ServiceMetrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  readonly appendDuration: Histogram<'stream' | 'outcome'>;
  readonly consolidationOutcomes: Counter<'outcome' | 'reason'>;
  readonly gateRejections: Counter<'reason'>;
  readonly recallSource: Counter<'source' | 'reason'>;
  readonly writeGateDecisions: Counter<'decision' | 'rule'>;
  readonly recallServed: Counter<'stale'>;
  readonly feedback: Counter<'type' | 'source'>;
  readonly erasureVerified: Histogram;

  constructor(options: MetricsOptions = {}) {
    const registers = [this.registry];
    if (options.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'memledger_' });
    this.httpDuration = new Histogram({
      name: 'memledger_http_request_duration_seconds',
      help: 'HTTP requests by route and status',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.appendDuration = new Histogram({
      name: 'memledger_event_store_append_seconds',
      help: 'Event store appends (one atomic batch each)',
      labelNames: ['stream', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.consolidationOutcomes = new Counter({
      name: 'memledger_consolidation_outcomes_total',
      help: 'Consolidation outcomes seen in the log since start (gate_passed, gate_failed, generation_failed, rejected, approved, switched), by reason',
      labelNames: ['outcome', 'reason'],
      registers,
    });
    this.gateRejections = new Counter({
      name: 'memledger_gate_rejections_total',
      help: 'Loss-gate failure reasons seen in the log since start',
      labelNames: ['reason'],
      registers,
    });
    this.recallSource = new Counter({
      name: 'memledger_recall_source_total',
      help: 'Recall answers by source (summary or raw) and why raw',
      labelNames: ['source', 'reason'],
      registers,
    });
    this.writeGateDecisions = new Counter({
      name: 'memledger_write_gate_decisions_total',
      help: 'Writes (record, supersede) the write gate let through (accepted), held for review (candidate) or refused (rejected), by the rule that decided (a policy rule id, fallback, floor.secret, floor.consent, floor.credential)',
      labelNames: ['decision', 'rule'],
      registers,
    });
    this.recallServed = new Counter({
      name: 'memledger_recall_served_total',
      help: 'Memories the recalls of this service served, counted as it records them, since start; stale="true": ranked with the stale reason',
      labelNames: ['stale'],
      registers,
    });
    this.feedback = new Counter({
      name: 'memledger_feedback_total',
      help: 'Feedback on served memories seen in the log since start, by type and source',
      labelNames: ['type', 'source'],
      registers,
    });
    this.erasureVerified = new Histogram({
      name: 'memledger_erasure_verified_seconds',
      help: 'Time from an erasure request (requestedAt) to its verified receipt (verification.verifiedAt)',
      buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
      registers,
    });
    const served = this.recallServed;
    const feedback = this.feedback;
    const total = async (counter: Counter<string>, match: Record<string, string> = {}) =>
      (await counter.get()).values
        .filter((v) => Object.entries(match).every(([k, x]) => v.labels[k] === x))
        .reduce((sum, v) => sum + v.value, 0);
    const ratio = (name: string, help: string, part: () => Promise<number>) =>
      new Gauge({
        name,
        help,
        registers,
        async collect() {
          const all = await total(served);
          this.set(all === 0 ? 0 : (await part()) / all);
        },
      });
    ratio('memledger_retrieval_hit_ratio', 'Feedback "used" per memory served, since start', () => total(feedback, { type: 'used' }));
    ratio('memledger_stale_use_ratio', 'Served memories ranked with the stale reason, per memory served, since start', () =>
      total(served, { stale: 'true' }),
    );
    ratio('memledger_correction_ratio', 'Feedback "corrected" per memory served, since start', () =>
      total(feedback, { type: 'corrected' }),
    );
    const lag = options.projectionLag;
    if (lag) {
      // The probe caches its measurement briefly, so the gauges of a scrape share one.
      const measure = lag;
      new Gauge({
        name: 'memledger_projection_lag_events',
        help: 'Events of the streams the projection reads after its checkpoint (counted up to a limit)',
        labelNames: ['projection'],
        registers,
        async collect() {
          this.reset();
          for (const p of await measure()) this.set({ projection: p.projection }, p.lagEvents);
        },
      });
      new Gauge({
        name: 'memledger_projection_lag_seconds',
        help: 'Age of the oldest event the projection has not applied yet (0 when caught up)',
        labelNames: ['projection'],
        registers,
        async collect() {
          this.reset();
          for (const p of await measure()) this.set({ projection: p.projection }, p.lagSeconds);
        },
      });
      new Gauge({
        name: 'memledger_projection_faults',
        help: 'Events of the log the active projection schema could not apply and passed over (see projections status)',
        labelNames: ['projection'],
        registers,
        async collect() {
          this.reset();
          for (const p of await measure()) this.set({ projection: p.projection }, p.faults);
        },
      });
    }
  }

  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
