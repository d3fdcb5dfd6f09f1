// A memledger service holding the demo's history (src/demo): the scripted
// customer-service subject, consolidated twice, with the phone number
// erased — written before the service starts, so its projector finds it in
// the log. Keys for the demo's tenant, one per role the console is tried with.
import { consolidationServicesFromEnv } from '../../../src/commands/consolidation/services.js';
import { runDemo } from '../../../src/demo/run-demo.js';
import { openReadSide } from '../../../src/queries/index.js';
import { openLedger } from '../../../src/runtime/open-ledger.js';
import { startTestService, type TestService } from '../../api/service.js';

export interface DemoService {
  readonly service: TestService;
  readonly tenant: string;
  readonly subject: string;
  /** The demo's report, as `memledger demo` prints it. */
  readonly report: readonly string[];
  readonly keys: { readonly auditor: string; readonly reader: string };
}

export async function startDemoService(consoleDir: string): Promise<DemoService> {
  const report: string[] = [];
  let demo: { tenant: string; subject: string } | undefined;
  const service = await startTestService('console', {
    env: { MEMLEDGER_CONSOLE_DIR: consoleDir },
    // No worker: the history stays as the demo left it (a worker would summarise the subject again).
    config: { consolidationWorkers: 0, sweepIntervalMs: 0 },
    beforeStart: async (env) => {
      const ledger = await openLedger({ env });
      try {
        const read = await openReadSide(ledger);
        try {
          demo = await runDemo({ ledger, read, services: await consolidationServicesFromEnv(env), print: (line) => report.push(line) });
        } finally {
          await read.close();
        }
      } finally {
        await ledger.close();
      }
    },
  });
  const { tenant, subject } = demo!;
  const [auditor, reader] = await Promise.all([service.key(tenant, 'auditor'), service.key(tenant, 'reader')]);
  return { service, tenant, subject, report, keys: { auditor, reader } };
}
