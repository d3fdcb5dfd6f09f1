// How far each projection is behind the log: events of the streams it reads
// after its checkpoint (counted by the store up to a limit: PostgreSQL reads
// none of them), the age of the oldest of them (the one event read), and the
// events it passed over as faults. /metrics and /readyz both ask; a
// measurement is reused for `cacheMs`. Faults do not make the service
// unready: every other subject is served (a faulted subject's reads say why).
import { formatPosition, type EventStore } from '../../infrastructure/event-store/port.js';
import { projectionFilter, type ProjectionDefinition } from '../../projections/index.js';
import { readFaults } from '../../projections/runtime/faults.js';
import { activeSchema, readCheckpoint } from '../../projections/runtime/registry.js';
import type { ProjectionHealth, Readiness } from '../services.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

export interface LagProbeOptions {
  readonly countLimit?: number;
  readonly cacheMs?: number;
  /** Ready while every projection's oldest unapplied event is at most this old. */
  readonly maxLagSeconds: number;
  readonly now?: () => number;
}

export class ProjectionLagProbe {
  #cached: { at: number; value: Promise<ProjectionHealth[]> } | undefined;

  constructor(
    private readonly db: ProjectionsKysely,
    private readonly store: EventStore,
    private readonly definitions: readonly ProjectionDefinition[],
    private readonly options: LagProbeOptions,
  ) {}

  measure(): Promise<ProjectionHealth[]> {
    const now = (this.options.now ?? Date.now)();
    if (this.#cached && now - this.#cached.at < (this.options.cacheMs ?? 1000)) return this.#cached.value;
    const value = Promise.all(this.definitions.map((d) => this.#lagOf(d, now)));
    this.#cached = { at: now, value };
    return value;
  }

  async readiness(): Promise<Omit<Readiness, 'database'>> {
    const projections = await this.measure();
    const ready = projections.every((p) => p.error === undefined && p.schema !== null && p.lagSeconds <= this.options.maxLagSeconds);
    return { ready, maxLagSeconds: this.options.maxLagSeconds, projections };
  }

  async #lagOf(definition: ProjectionDefinition, now: number): Promise<ProjectionHealth> {
    const base = { projection: definition.name };
    try {
      const schema = await activeSchema(this.db, definition.name);
      const position = schema ? (await readCheckpoint(this.db, schema.schema_name)).position : undefined;
      const filter = projectionFilter(definition);
      const after = { ...(position ? { after: position } : {}), ...(filter ? { filter } : {}) };
      const first = await this.store.readAll({ ...after, maxCount: 1 });
      const faults = schema ? (await readFaults(this.db, schema.schema_name, 0)).count : 0;
      const common = { ...base, schema: schema?.schema_name ?? null, checkpoint: position ? formatPosition(position) : null, faults };
      if (first.length === 0) return { ...common, lagEvents: 0, lagIsLowerBound: false, lagSeconds: 0 };
      // One over the limit tells an exact count at the limit from a lower bound.
      const limit = this.options.countLimit ?? 10_000;
      const counted = await this.store.countAll({ ...after, limit: limit + 1 });
      return {
        ...common,
        lagEvents: Math.min(counted, limit),
        lagIsLowerBound: counted > limit,
        lagSeconds: Math.max(0, (now - first[0]!.recordedAt.getTime()) / 1000),
      };
    } catch (error) {
      return {
        ...base,
        schema: null,
        checkpoint: null,
        lagEvents: 0,
        lagIsLowerBound: false,
        lagSeconds: 0,
        faults: 0,
        error: (error as Error).message,
      };
    }
  }
}
