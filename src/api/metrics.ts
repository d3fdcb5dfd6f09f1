// The service's Prometheus metrics (GET /metrics), on a registry of its own
// so that several services in one process (tests) do not collide:
//   memledger_http_request_duration_seconds{method,route,status}
//   memledger_event_store_append_seconds{stream,outcome}   append latency
//   memledger_projection_lag_events{projection}            events not yet applied
//   memledger_projection_lag_seconds{projection}           age of the oldest of them
//   memledger_projection_faults{projection}                events it could not apply (passed over)
//   memledger_consolidation_outcomes_total{outcome,reason}
//   memledger_gate_rejections_total{reason}
//   memledger_write_gate_decisions_total{decision,rule}   writes accepted / held as candidates / rejected, by deciding rule
//   memledger_recall_source_total{source,reason}           summary vs raw
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
    const lag = options.projectionLag;
    if (lag) {
      // The probe caches its measurement briefly, so the gauges of a scrape share one.
      const measure = lag;
      new Gauge({
        name: 'memledger_projection_lag_events',
        help: 'Events of the log after the projection checkpoint (counted up to a limit)',
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
