// `memledger server status|stop`: the data folder's embedded PostgreSQL,
// which outlives its last client for MEMLEDGER_EMBEDDED_LINGER_SECONDS. Both
// look at MEMLEDGER_DATA_DIR's server whatever else is configured; neither
// starts it.
import type { Command } from 'commander';
import { readConfig } from '../../infrastructure/config.js';
import { embeddedServerStatus, stopEmbeddedServer } from '../../infrastructure/embedded-postgres/index.js';
import { run } from '../session.js';

export function registerServerCommands(program: Command): void {
  const server = program.command('server').description("the data folder's embedded PostgreSQL server");
  server
    .command('status')
    .description('whether it runs (pid, port), which processes use it, and when it stops if none does')
    .action(() => run(() => Promise.resolve(embeddedServerStatus(readConfig().dataDir))));
  server
    .command('stop')
    .description('stop it now instead of after the linger time; refused (exit 3) while a process uses it, unless --force')
    .option('--force', 'stop it even while processes use it (they lose their connections)')
    .action((o: { force?: boolean }) =>
      run(async () => {
        const { dataDir } = readConfig();
        return { dataDir, ...(await stopEmbeddedServer(dataDir, { force: o.force === true })) };
      }),
    );
}
