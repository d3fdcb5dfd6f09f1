// `serve --workers N`: N worker processes (node:cluster) share the listening
// port, each with its own pools. Worker 1 also owns the background work (the
// projector, consolidation workers, TTL and retention sweepers; their
// advisory locks and revision fences would keep several owners safe too, but
// one owner does each thing once). The primary only supervises: it holds the
// embedded server (so it never stops between worker restarts), starts a
// worker again when one dies, and on a stop request tells each to drain.
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { resolveConnections } from '../../infrastructure/config.js';
import type { ServiceConfig } from './service-config.js';
import { STOP_MESSAGE } from './stop-requests.js';

/** The environment variable that tells a worker its index (1…N). */
export const WORKER_INDEX_VARIABLE = 'MEMLEDGER_SERVE_WORKER';
export const SERVING_MESSAGE = 'memledger:serving';
const RESTART_MS = 1000;

export interface ServingMessage {
  readonly type: typeof SERVING_MESSAGE;
  readonly url: string;
  readonly port: number;
}

function isServing(message: unknown): message is ServingMessage {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === SERVING_MESSAGE;
}

/** Runs the primary until stopped; resolves with the process's exit code. */
export async function runPrimary(config: ServiceConfig, logger: Logger, stopRequested: Promise<string>): Promise<number> {
  const connections = await resolveConnections({ embedded: { onNotice: (message) => logger.info(message) } });
  const workers = new Map<number, Worker>();
  /** Indexes that have served at least once: until all have, a worker's death is a failure to start. */
  const served = new Set<number>();
  /** Workers listening for a stop message (one sent earlier would be lost). */
  const listening = new WeakSet<Worker>();
  let stopping = false;
  let failed: (code: number) => void = () => undefined;
  const startupFailed = new Promise<number>((resolve) => (failed = resolve));

  const fork = (index: number): void => {
    const worker = cluster.fork({ [WORKER_INDEX_VARIABLE]: String(index) });
    workers.set(index, worker);
    worker.on('message', (message: unknown) => {
      if (!isServing(message)) return;
      listening.add(worker);
      if (stopping) worker.send(STOP_MESSAGE);
      if (served.size === config.workers) return;
      served.add(index);
      if (served.size === config.workers)
        logger.info({ url: message.url, port: message.port, workers: config.workers }, 'memledger serving');
    });
    worker.on('exit', (code, signal) => {
      if (workers.get(index) === worker) workers.delete(index);
      if (stopping) return;
      if (served.size < config.workers) {
        // A worker that cannot start (bad configuration, port taken): the others would not fare better.
        failed(code ?? 1);
        return;
      }
      logger.error({ worker: index, code, signal }, 'a worker died; starting another');
      setTimeout(() => {
        if (!stopping) fork(index);
      }, RESTART_MS).unref();
    });
  };

  for (let index = 1; index <= config.workers; index++) fork(index);
  const outcome = await Promise.race([
    stopRequested.then((reason) => ({ reason, code: 0 })),
    startupFailed.then((code) => ({ reason: 'a worker failed to start', code })),
  ]);
  stopping = true;
  logger.info({ reason: outcome.reason }, 'shutting down');
  await Promise.all([...workers.values()].map((worker) => stopWorker(worker, listening.has(worker), config.drainTimeoutMs + 20_000)));
  await connections.release();
  logger.info('stopped');
  return outcome.code;
}

/** Asks a worker to drain (one still starting is asked once it serves); kills it if it is still there after `ms`. */
function stopWorker(worker: Worker, listening: boolean, ms: number): Promise<void> {
  if (worker.isDead()) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), ms);
    worker.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    if (!worker.isConnected()) worker.process.kill('SIGTERM');
    else if (listening) worker.send(STOP_MESSAGE);
  });
}
