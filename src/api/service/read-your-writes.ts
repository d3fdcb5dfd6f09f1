// Read your own writes over HTTP: before a projection-backed query, wait
// until every projection has applied the log up to its head as it is when
// the query arrives — once the log shows every write committed before the
// query (the caller's own included: on PostgreSQL a transaction open
// elsewhere holds the log's stable head back; awaitCommitted waits for it,
// up to commitWaitMs, then the query goes on with the head it has). The in-process projector reports each committed batch
// (onBatch), so the wait ends the moment it passes the head, without
// polling. When this process's projector is not the one applying (another
// process owns the projection, or the process runs none: an API-only serve
// worker) or has not reported yet, fall back to the runtime's catch-up,
// which applies or waits for the owner.
// A read of one subject (recall) needs less: every event of the subject's
// stream (the CLI's and MCP's read your writes, catchUpWith). Its stream
// shows each committed event at once, so the target is the stream's last
// position, known from the load that checks the subject exists, and the
// wait is on the projector alone: no polling of the log's horizon while
// other transactions are in flight (awaitPosition).
// A projector sleeps through appends to streams it does not read (recall
// records, follow.ts), so its reported checkpoint may trail a target that
// only such events lie before: a projection behind the target with nothing
// of its streams up to it has, in effect, reached it (passedOver), asked in
// one short read rather than waited for.
import {
  comparePositions,
  LogHorizonTimeout,
  parsePosition,
  type EventStore,
  type Position,
} from '../../infrastructure/event-store/port.js';
import { catchUpProjections, nothingToApply, type ProjectionDefinition } from '../../projections/index.js';
import type { BatchProgress } from '../../projections/runtime/apply-loop.js';
import type { ProjectionsKysely } from '../../projections/runtime/schema-handles.js';

/** How often the fallback catch-up looks again for a target the log does not show yet. */
const CATCH_UP_POLL_MS = 25;

interface Waiter {
  readonly target: Position;
  readonly resolve: () => void;
}

export class ReadYourWrites {
  readonly #checkpoints = new Map<string, Position>();
  #waiters: Waiter[] = [];
  /**
   * The projections this process's own projector reports (onBatch) and does not stand by for. Only when it
   * reports them all is waiting for its next report worth it: an API-only worker, which runs no projector,
   * learns checkpoints from the catch-up alone, and waiting for a report there lasted followerWaitMs each time.
   */
  readonly #reporting = new Set<string>();

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
    this.#reporting.add(progress.projection);
    this.#advance(progress.projection, progress.checkpoint);
  };

  /** Pass as followProjection's onStandby, with the projection another process owns. */
  readonly onStandby = (projection: string): void => {
    this.#reporting.delete(projection);
  };

  /** Whether this process's projector reports every projection, so that its next batch can end a wait. */
  #followedHere(): boolean {
    return this.definitions.every((definition) => this.#reporting.has(definition.name));
  }

  async awaitHead(): Promise<void> {
    try {
      await this.store.awaitCommitted({ timeoutMs: this.commitWaitMs });
    } catch (error) {
      if (!(error instanceof LogHorizonTimeout)) throw error;
    }
    const head = await this.store.headPosition();
    if (!head) return;
    if (this.#lowest() !== undefined && this.#followedHere()) {
      if (await this.#passedOver(head)) return;
      if (await this.#waitFor(head)) return;
    }
    for (const result of await catchUpProjections(this.store, this.db)) {
      if (result.checkpoint) this.#advance(result.projection, parsePosition(result.checkpoint));
    }
  }

  /** Resolves once every projection has applied the log through `target` (or commitWaitMs passed: the query goes on with what it has). */
  async awaitPosition(target: Position): Promise<void> {
    const low = this.#lowest();
    if (low !== undefined && comparePositions(low, target) >= 0) return;
    if (low !== undefined && this.#followedHere() && ((await this.#passedOver(target)) || (await this.#waitFor(target)))) return;
    const started = Date.now();
    for (;;) {
      const results = await catchUpProjections(this.store, this.db);
      for (const result of results) if (result.checkpoint) this.#advance(result.projection, parsePosition(result.checkpoint));
      if (results.every((r) => r.checkpoint !== null && comparePositions(parsePosition(r.checkpoint), target) >= 0)) return;
      if (Date.now() - started >= this.commitWaitMs) return;
      await new Promise((resolve) => setTimeout(resolve, CATCH_UP_POLL_MS));
    }
  }

  /**
   * Advances to `target` every reported projection behind it that has nothing of its streams up to it; true when
   * then every projection has reached it.
   */
  async #passedOver(target: Position): Promise<boolean> {
    await Promise.all(
      this.definitions.map(async (definition) => {
        const at = this.#checkpoints.get(definition.name);
        if (at === undefined || comparePositions(at, target) >= 0) return;
        if (await nothingToApply(this.store, definition, at, target)) this.#advance(definition.name, target);
      }),
    );
    const low = this.#lowest();
    return low !== undefined && comparePositions(low, target) >= 0;
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
