// `memledger serve [--port P] [--host H] [--workers N]`: the HTTP API with
// the projector, the consolidation workers and the sweepers, until stopped
// (SIGTERM or SIGINT; see stop-requests.ts). This command owns those signals
// (so the embedded server's own exit hooks stand aside): on the first it
// drains and stops everything, lets go of the embedded server (which
// lingers, or stops when nothing else uses it and the linger time is 0),
// then exits 0; a second one during the drain exits at once. With N > 1 this
// process is the primary of N workers (serve-workers.ts).
import cluster from 'node:cluster';
import type { Command } from 'commander';
import { ensurePortFree } from '../../api/service/listen-port.js';
import { serviceLogger } from '../../api/service/logger.js';
import { runPrimary, SERVING_MESSAGE, WORKER_INDEX_VARIABLE, type ServingMessage } from '../../api/service/serve-workers.js';
import { readServiceConfig } from '../../api/service/service-config.js';
import { startService } from '../../api/service/start-service.js';
import { stopRequests } from '../../api/service/stop-requests.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { EXIT } from '../../answers/answer-table.js';
import { printError, printNotice, reportError } from '../output.js';

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,5}$/.test(value) || n > 65535) throw new InvalidInput('port', 'must be a whole number from 0 to 65535 (0: any free port)');
  return n;
}

function workersOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,2}$/.test(value) || n < 1 || n > 64) throw new InvalidInput('workers', 'must be a whole number from 1 to 64');
  return n;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'run the HTTP API, the projector, the consolidation workers and the sweepers (TTL, retention, candidate expiry; on the embedded PostgreSQL when nothing is configured)',
    )
    .option('--port <port>', 'listen port (default MEMLEDGER_PORT or 8080; 0 = any free port)')
    .option('--host <host>', 'listen address (default MEMLEDGER_HOST or 127.0.0.1)')
    .option('--workers <n>', 'processes serving the port, each with its own pools (default MEMLEDGER_SERVE_WORKERS or 1)')
    .option(
      '--stop-with-parent',
      'stop as on SIGTERM when the parent process ends (npm start uses it: a killed npm takes the server along)',
    )
    .action(async (o: { port?: string; host?: string; workers?: string; stopWithParent?: boolean }) => {
      const stopRequested = stopRequests({ stopWithParent: o.stopWithParent === true, onSecondSignal: () => process.exit(EXIT.failure) });
      try {
        const port = portOf(o.port);
        const workers = workersOf(o.workers);
        const config = readServiceConfig(process.env, {
          ...(port !== undefined ? { port } : {}),
          ...(o.host !== undefined ? { host: o.host } : {}),
          ...(workers !== undefined ? { workers } : {}),
        });
        const index = cluster.isWorker ? Number(process.env[WORKER_INDEX_VARIABLE]) : 0;
        // A worker's port is the primary's, and held by its siblings.
        if (cluster.isPrimary) await ensurePortFree(config.host, config.port);
        const logger = serviceLogger(config.logLevel);
        if (cluster.isPrimary && config.workers > 1) process.exit(await runPrimary(config, logger, stopRequested));

        const log = index > 0 ? logger.child({ worker: index }) : logger;
        const service = await startService({
          config,
          env: process.env,
          logger: log,
          background: index <= 1,
          embedded: { onNotice: cluster.isWorker ? (message) => log.info(message) : printNotice },
        });
        if (cluster.isWorker) process.send!({ type: SERVING_MESSAGE, url: service.url, port: service.port } satisfies ServingMessage);
        else log.info({ url: service.url, port: service.port }, 'memledger serving');
        const reason = await stopRequested;
        log.info({ reason }, 'shutting down');
        await service.stop();
        process.exit(EXIT.ok);
      } catch (error) {
        const report = reportError(error);
        printError(report);
        process.exit(report.exitCode);
      }
    });
}
