// Read your own writes over HTTP: before a projection-backed query, wait
// until every projection has applied the log up to its head as it is when
// the query arrives — once the log shows every write committed before the
// query (the caller's own included: on PostgreSQL a transaction open
// elsewhere holds the log's stable head back; awaitCommitted waits for it,
// up to commitWaitMs, then the query goes on with the head it has). The in-process projector reports each committed batch
// (onBatch), so the wait ends the moment it passes the head, without
// polling. When this process's projector is not the one applying (another
// process owns the projection) or has not reported yet, fall back to the
// runtime's catch-up, which applies or waits for the owner.
import {
  comparePositions,
  LogHorizonTimeout,
  parsePosition,
  type EventStore,
  type Position,
} from '../../infrastructure/event-store/port.js';
import { catchUpProjections, type ProjectionDefinition } from '../../projections/index.js';
import type { BatchProgress } from '../../projections/runtime/apply-loop.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

interface Waiter {
  readonly target: Position;
  readonly resolve: () => void;
}

export class ReadYourWrites {
  readonly #checkpoints = new Map<string, Position>();
  #waiters: Waiter[] = [];
  /** Set while this process's projector stands by (another process owns a projection): waiting for it would be in vain. */
  #standby = false;

  constructor(
    private readonly store: EventStore,
    private readonly db: ProjectionsKysely,
    private readonly definitions: readonly ProjectionDefinition[],
    /** How long to wait for the in-process projector before falling back to catch-up. */
    private readonly followerWaitMs = 5000,
    /** How long to wait for the log to show every earlier commit. */
    private readonly commitWaitMs = 10_000,
  ) {}

  /** The in-process projector's progress (pass as followProjection's onBatch). */
  readonly onBatch = (progress: BatchProgress): void => {
    this.#standby = false;
    this.#advance(progress.projection, progress.checkpoint);
  };

  /** Pass as followProjection's onStandby. */
  readonly onStandby = (): void => {
    this.#standby = true;
  };

  async awaitHead(): Promise<void> {
    try {
      await this.store.awaitCommitted({ timeoutMs: this.commitWaitMs });
    } catch (error) {
      if (!(error instanceof LogHorizonTimeout)) throw error;
    }
    const head = await this.store.headPosition();
    if (!head) return;
    const low = this.#lowest();
    if (low !== undefined && !this.#standby) {
      if (comparePositions(low, head) >= 0) return;
      if (await this.#waitFor(head)) return;
    }
    for (const result of await catchUpProjections(this.store, this.db)) {
      if (result.checkpoint) this.#advance(result.projection, parsePosition(result.checkpoint));
    }
  }

  #advance(projection: string, position: Position): void {
    const known = this.#checkpoints.get(projection);
    if (known && comparePositions(known, position) >= 0) return;
    this.#checkpoints.set(projection, position);
    const low = this.#lowest();
    if (low === undefined) return;
    const ready = this.#waiters.filter((w) => comparePositions(low, w.target) >= 0);
    this.#waiters = this.#waiters.filter((w) => comparePositions(low, w.target) < 0);
    for (const w of ready) w.resolve();
  }

  /** The checkpoint every projection has reached; undefined until each has reported once. */
  #lowest(): Position | undefined {
    let low: Position | undefined;
    for (const definition of this.definitions) {
      const p = this.#checkpoints.get(definition.name);
      if (!p) return undefined;
      if (!low || comparePositions(p, low) < 0) low = p;
    }
    return low;
  }

  #waitFor(target: Position): Promise<boolean> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve(false);
      }, this.followerWaitMs);
      const waiter: Waiter = {
        target,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.#waiters.push(waiter);
    });
  }
}
