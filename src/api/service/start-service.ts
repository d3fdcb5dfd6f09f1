// `memledger serve` in one process: the HTTP API, the projector (follow mode)
// for every projection, the consolidation workers (on a thread of their own:
// consolidation-thread.ts), the TTL and retention
// sweepers and the consolidation-outcome counter — on the embedded PostgreSQL
// when nothing is configured. stop() drains: the listener closes and in-flight requests
// finish, background loops stop between units of work, then the pools and the
// ledger close (letting go of the embedded server, which lingers).
import { setMaxListeners } from 'node:events';
import type { Logger } from 'pino';
import { consolidationServicesFromEnv } from '../../commands/consolidation/services.js';
import type { Ledger } from '../../commands/ledger.js';
import { ApiKeyStore } from '../../infrastructure/api-keys/api-key-store.js';
import { followProjection, openProjectionDatabase, PROJECTIONS } from '../../projections/index.js';
import type { ResolveOptions } from '../../infrastructure/config.js';
import { openLedger } from '../../runtime/open-ledger.js';
import { buildApi } from '../app.js';
import { ServiceMetrics } from '../metrics.js';
import { observeConsolidationOutcomes } from './consolidation-outcomes.js';
import { runConsolidationThread } from './consolidation-thread.js';
import { supervise } from './supervised-loop.js';
import { ProjectionLagProbe } from './projection-lag.js';
import { ReadYourWrites } from './read-your-writes.js';
import type { ServiceConfig } from './service-config.js';
import { sql } from 'kysely';
import { DatabaseWatch } from './database-watch.js';
import { listenFailure } from './listen-port.js';
import { timedEventStore, watchedEventStore } from './timed-event-store.js';
import { countServedRecall } from './feedback-metrics.js';
import { runTtlSweeper } from './ttl-sweeper.js';
import { runLifecycleSweeper } from './lifecycle-sweeper.js';
import { LifecyclePolicyReader } from '../../reads/lifecycle/lifecycle-policy-reader.js';
import { runRetentionSweeper } from './retention-sweeper.js';
import { runCandidateSweeper } from './candidate-sweeper.js';
import { OwnRequestKeys } from '../auth/own-requests.js';
import { httpApiErasureCheck } from '../erasure/http-api-check.js';
import { readSideErasureChecks } from '../../queries/erasure/index.js';
import { RetrievalIndexCache } from '../../queries/recall/retrieval/index-cache.js';
import { PostgresRetentionPolicies } from '../../infrastructure/retention/postgres-retention-policies.js';

export interface RunningService {
  /** http://host:port */
  readonly url: string;
  readonly port: number;
  /** Recall's in-memory retrieval indexes (what the erasure check searches; tests look in). */
  readonly retrievalIndexes: RetrievalIndexCache;
  /** Drains and stops everything; safe to call twice. */
  stop(): Promise<void>;
}

export interface StartOptions {
  readonly config: ServiceConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly logger: Logger;
  readonly cwd?: string;
  /**
   * False: the API only, without the projector, consolidation workers and sweepers (the other
   * workers of `serve --workers N`; worker 1 runs them). Default true.
   */
  readonly background?: boolean;
  readonly embedded?: ResolveOptions['embedded'];
}

export async function startService(options: StartOptions): Promise<RunningService> {
  const { config, env, logger } = options;
  const closers: Array<() => Promise<void>> = [];
  const closeAll = async () => {
    for (const close of closers.splice(0).reverse()) await close().catch((error) => logger.error({ err: error }, 'shutdown step failed'));
  };
  let app: ReturnType<typeof buildApi> | undefined;
  try {
    const ledger = await openLedger({
      env,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      ...(options.embedded ? { embedded: options.embedded } : {}),
    });
    closers.push(() => ledger.close());
    const projections = await openProjectionDatabase(ledger.databaseUrl, { poolSize: 10 });
    closers.push(() => projections.close());
    const keys = new ApiKeyStore(ledger.databaseUrl);
    closers.push(() => keys.close());
    const consolidation = await consolidationServicesFromEnv(env);

    const probe = new ProjectionLagProbe(projections.db, ledger.eventStore, PROJECTIONS, { maxLagSeconds: config.readyMaxLagSeconds });
    const metrics = new ServiceMetrics({ projectionLag: () => probe.measure() });
    const database = new DatabaseWatch({
      ping: async () => void (await sql`select 1`.execute(projections.db)),
      revive: () => ledger.revive(),
      logger,
      intervalMs: config.databaseCheckIntervalMs,
    });
    const health = {
      database: () => database.state,
      readiness: async () => {
        const answer = await probe.readiness();
        return { ...answer, ready: answer.ready && database.state === 'up', database: database.state };
      },
    };
    const eventStore = timedEventStore(ledger.eventStore, metrics.appendDuration);
    // Appends go through the timed store; folded reads keep the ledger's repository (and its cache).
    // Everything else the ledger carries comes along (its repository and cache, the write policies, the
    // model ports: a write embeds its memory, recall uses the semantic signal, reindex has an embedder).
    const measured: Ledger = {
      ...ledger,
      eventStore,
      onWriteGated: (decision, rule) => metrics.writeGateDecisions.inc({ decision, rule }),
    };

    const read = {
      projections: projections.db,
      // The recalls this service records are counted as they are appended (feedback-metrics.ts).
      eventStore: watchedEventStore(eventStore, (events) => {
        for (const event of events) countServedRecall(metrics, event);
      }),
      keyStore: ledger.keyStore,
      subjects: ledger.subjects,
      clock: ledger.clock,
      countTokens: consolidation.countTokens,
      retrievalIndexes: new RetrievalIndexCache(),
      lifecyclePolicies: new LifecyclePolicyReader(ledger.eventStore),
      ...(ledger.retrieval ? { retrieval: ledger.retrieval } : {}),
    };
    const freshness = new ReadYourWrites(ledger.eventStore, projections.db, PROJECTIONS);
    const ownKeys = new OwnRequestKeys();
    app = buildApi(
      {
        ledger: measured,
        read,
        readYourWrites: () => freshness.awaitHead(),
        readYourWritesThrough: (target) => freshness.awaitPosition(target),
        consolidation,
        metrics,
        health,
      },
      { keys, keyCacheMs: config.apiKeyCacheMs, logger, ownKeys, ...(config.consoleDir ? { consoleDir: config.consoleDir } : {}) },
    );
    const api = app;
    // Listening before the background work starts: a port taken since serve checked it fails here, with nothing to stop yet.
    await api.listen({ host: config.host, port: config.port }).catch((error: unknown) => {
      throw listenFailure(error, config.host, config.port);
    });
    const address = api.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') && !config.host.startsWith('[') ? `[${config.host}]` : config.host}:${port}`;

    const stopping = new AbortController();
    const { signal } = stopping;
    // Every background loop (projectors, workers, sweepers, subscriptions) waits on this one signal: more than node's default 10 is no leak.
    setMaxListeners(100, signal);
    const loops: Promise<void>[] = [];
    const keepRunning = (name: string, work: () => Promise<unknown>) =>
      loops.push(
        supervise(work, signal, {
          ended: () => logger.warn({ loop: name }, 'background loop ended early; restarting'),
          failed: (error) => logger.error({ loop: name, err: error }, 'background loop failed; restarting'),
        }),
      );
    keepRunning('database-watch', () => database.run(signal));
    const background = options.background ?? true;
    logger.info(
      { background },
      background ? 'running the projector, consolidation workers and sweepers' : 'API only (another worker runs the background work)',
    );
    for (const definition of background ? PROJECTIONS : []) {
      keepRunning(`projector:${definition.name}`, () =>
        followProjection(projections.db, ledger.eventStore, definition, {
          signal,
          onBatch: freshness.onBatch,
          onStandby: (schema) => {
            freshness.onStandby(definition.name);
            logger.debug({ projection: definition.name, schema }, 'another process owns the projection; standing by');
          },
        }),
      );
    }
    if (background && config.consolidationWorkers > 0) {
      keepRunning('consolidation-thread', () =>
        runConsolidationThread({
          env,
          ...(options.cwd ? { cwd: options.cwd } : {}),
          databaseUrl: ledger.databaseUrl,
          workers: config.consolidationWorkers,
          threshold: config.consolidationThreshold,
          pollMs: config.consolidationPollMs,
          maxDeferMs: config.consolidationDeferMs,
          signal,
          logger,
          appendDuration: metrics.appendDuration,
        }),
      );
    }
    if (background && config.sweepIntervalMs > 0) {
      keepRunning('ttl-sweeper', () =>
        runTtlSweeper(measured, projections.db, {
          intervalMs: config.sweepIntervalMs,
          signal,
          report: (r) => logger.info(r, 'ttl sweep expired memories'),
        }),
      );
      keepRunning('candidate-sweeper', () =>
        runCandidateSweeper(measured, projections.db, {
          intervalMs: config.sweepIntervalMs,
          signal,
          report: (sweep) =>
            logger.info(
              { subjects: sweep.subjects, expired: sweep.expired.reduce((n, s) => n + s.memoryIds.length, 0) },
              'candidate sweep',
            ),
        }),
      );
      const retention = new PostgresRetentionPolicies(ledger.databaseUrl);
      closers.push(() => retention.close());
      keepRunning('retention-sweeper', () =>
        runRetentionSweeper(
          measured,
          [...readSideErasureChecks(read), httpApiErasureCheck({ app: api, ownKeys, keyStore: ledger.keyStore, clock: ledger.clock })],
          () => freshness.awaitHead(),
          retention,
          {
            intervalMs: config.sweepIntervalMs,
            signal,
            report: (swept) =>
              logger.info(
                {
                  subjects: swept.length,
                  expired: swept.reduce((n, s) => n + s.expired.length, 0),
                  receipts: swept.flatMap((s) => (s.erased ? [s.erased.receiptId] : [])),
                },
                'retention sweep',
              ),
          },
        ),
      );
    }
    if (background && config.lifecycleSweepMs > 0) {
      keepRunning('lifecycle-sweeper', () =>
        runLifecycleSweeper(measured, projections.db, read.lifecyclePolicies, {
          intervalMs: config.lifecycleSweepMs,
          signal,
          report: (swept) =>
            logger.info(
              {
                subjects: swept.length,
                demoted: swept.reduce((n, s) => n + s.demoted.length, 0),
                archived: swept.reduce((n, s) => n + s.archived.length, 0),
              },
              'lifecycle sweep',
            ),
        }),
      );
    }
    keepRunning('consolidation-outcomes', () =>
      observeConsolidationOutcomes(ledger.eventStore, metrics, signal, (error) =>
        logger.warn({ err: error }, 'outcome subscription failed; resubscribing'),
      ),
    );
    closers.push(async () => {
      stopping.abort();
      await Promise.all(loops);
    });

    let stopped: Promise<void> | undefined;
    return {
      url,
      port,
      retrievalIndexes: read.retrievalIndexes,
      stop: () =>
        (stopped ??= (async () => {
          logger.info('draining');
          await closeWithin(api.close(), config.drainTimeoutMs, () =>
            logger.warn({ drainTimeoutMs: config.drainTimeoutMs }, 'requests still running after the drain timeout'),
          );
          await closeAll();
          logger.info('stopped');
        })()),
    };
  } catch (error) {
    await app?.close().catch(() => undefined);
    await closeAll();
    throw error;
  }
}

async function closeWithin(closing: Promise<unknown>, ms: number, onTimeout: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  const winner = await Promise.race([closing.then(() => 'closed' as const), timeout]);
  clearTimeout(timer);
  if (winner === 'timeout') onTimeout();
}
