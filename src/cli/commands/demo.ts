// `memledger demo`: a scripted customer-service history, end to end, with a
// readable report (text, not JSON: it is for people).
import type { Command } from 'commander';
import { consolidationServicesFromEnv } from '../../commands/consolidation/services.js';
import { runDemo } from '../../demo/run-demo.js';
import { openReadSide } from '../../queries/index.js';
import { run } from '../session.js';

export function registerDemoCommand(program: Command): void {
  program
    .command('demo')
    .description('run a scripted customer-service history end to end and print a short report')
    .action(() =>
      run(async (ledger) => {
        const l = await ledger();
        const read = await openReadSide(l);
        try {
          const services = await consolidationServicesFromEnv(process.env);
          await runDemo({ ledger: l, read, services, print: (line) => process.stdout.write(`${line}\n`) });
        } finally {
          await read.close();
        }
        return undefined;
      }),
    );
}
