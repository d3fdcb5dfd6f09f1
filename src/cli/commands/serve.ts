// `memledger serve [--port P] [--host H]`: the HTTP API with the projector,
// the consolidation workers and the TTL sweeper, until SIGTERM or SIGINT.
// This command owns those signals (so the embedded server's own exit hooks
// stand aside): on the first it drains and stops everything, the embedded
// server included, then exits 0; a second one during the drain exits at once.
import type { Command } from 'commander';
import { readServiceConfig } from '../../api/service/service-config.js';
import { serviceLogger } from '../../api/service/logger.js';
import { startService } from '../../api/service/start-service.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { EXIT } from '../../answers/answer-table.js';
import { printError, reportError } from '../output.js';

function portOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d{1,5}$/.test(value) || n > 65535) throw new InvalidInput('port', 'must be a whole number from 0 to 65535 (0: any free port)');
  return n;
}

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description(
      'run the HTTP API, the projector, the consolidation workers and the TTL sweeper (on the embedded PostgreSQL when nothing is configured)',
    )
    .option('--port <port>', 'listen port (default MEMLEDGER_PORT or 8080; 0 = any free port)')
    .option('--host <host>', 'listen address (default MEMLEDGER_HOST or 127.0.0.1)')
    .action(async (o) => {
      let signalled: (signal: NodeJS.Signals) => void = () => undefined;
      const stopRequested = new Promise<NodeJS.Signals>((resolve) => (signalled = resolve));
      let signals = 0;
      const onSignal = (signal: NodeJS.Signals) => {
        signals++;
        if (signals > 1) process.exit(EXIT.failure);
        signalled(signal);
      };
      process.on('SIGTERM', onSignal);
      process.on('SIGINT', onSignal);
      try {
        const port = portOf(o.port);
        const config = readServiceConfig(process.env, {
          ...(port !== undefined ? { port } : {}),
          ...(o.host !== undefined ? { host: o.host } : {}),
        });
        const logger = serviceLogger(config.logLevel);
        const service = await startService({ config, env: process.env, logger });
        logger.info({ url: service.url, port: service.port }, 'memledger serving');
        const signal = await stopRequested;
        logger.info({ signal }, 'shutting down');
        await service.stop();
        process.exit(EXIT.ok);
      } catch (error) {
        const report = reportError(error);
        printError(report);
        process.exit(report.exitCode);
      }
    });
}
