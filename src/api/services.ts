// What the routes work with: the ledger (commands), the read side
// (queries), consolidation's services, the service's metrics and
// its health probe. Built by the service (service/start-service.ts) or a test.
import type { ConsolidationServices } from '../commands/consolidation/services.js';
import type { Ledger } from '../commands/ledger.js';
import type { Position } from '../infrastructure/event-store/port.js';
import type { ReadSide } from '../queries/read-side.js';
import type { DatabaseState } from './service/database-watch.js';
import type { ServiceMetrics } from './metrics.js';

export interface ProjectionHealth {
  readonly projection: string;
  readonly schema: string | null;
  readonly checkpoint: string | null;
  /** Events of the log after the checkpoint (counted up to a limit). */
  readonly lagEvents: number;
  readonly lagIsLowerBound: boolean;
  /** Age of the oldest event not yet applied (0 when caught up). */
  readonly lagSeconds: number;
  /** Events the active schema could not apply and passed over (projections status lists them). */
  readonly faults: number;
  readonly error?: string;
}

export interface Readiness {
  readonly ready: boolean;
  /** Whether the database answered at the last check. */
  readonly database: DatabaseState;
  readonly maxLagSeconds: number;
  readonly projections: readonly ProjectionHealth[];
}

export interface HealthProbe {
  readiness(): Promise<Readiness>;
  database(): DatabaseState;
}

export interface ApiServices {
  readonly ledger: Ledger;
  /** The query side (recall, as-of, replay, stale, lineage). */
  readonly read: ReadSide;
  /** Resolves once every projection has applied the log up to its head at the call. */
  readonly readYourWrites: () => Promise<void>;
  /** Resolves once every projection has applied the log through this position (a read of one subject: its stream's last event). */
  readonly readYourWritesThrough: (target: Position) => Promise<void>;
  readonly consolidation: ConsolidationServices;
  readonly metrics: ServiceMetrics;
  readonly health: HealthProbe;
}
