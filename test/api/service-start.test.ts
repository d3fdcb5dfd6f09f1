// Starting and stopping the service in process: a busy port is refused as
// such, and background loops stop at once when asked mid-work (issue 12,
// item 10: serve on a busy port used to wait out the retention sweeper's
// 60 s pause before exiting).
import { createServer, type Server } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { PortInUse } from '../../src/api/service/listen-port.js';
import { runRetentionSweeper } from '../../src/api/service/retention-sweeper.js';
import { PostgresRetentionPolicies } from '../../src/infrastructure/retention/postgres-retention-policies.js';
import { openTestLedger } from '../support/ledger.js';
import { startTestService } from './service.js';

const servers: Server[] = [];
afterAll(() => servers.forEach((server) => server.close()));

async function occupiedPort(): Promise<number> {
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  return (server.address() as { port: number }).port;
}

describe('the service starting and stopping', () => {
  it('refuses a port another program listens on with PortInUse naming it', async () => {
    const port = await occupiedPort();
    const failure = await startTestService('busy_port', { config: { port } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(PortInUse);
    expect((failure as PortInUse).message).toContain(`127.0.0.1:${port}`);
  });

  it('ends the retention sweeper as soon as it is stopped during a sweep, not after its interval', async () => {
    const test = await openTestLedger('retention_stop');
    const { ledger, database } = test;
    const policies = new PostgresRetentionPolicies(database.url);
    try {
      const stopping = new AbortController();
      const loop = runRetentionSweeper(ledger, [], () => Promise.resolve(), policies, {
        intervalMs: 3_600_000,
        signal: stopping.signal,
        report: () => undefined,
      });
      // The sweep is under way (its query of the tenants is in flight) when the stop comes.
      stopping.abort();
      const outcome = await Promise.race([
        loop.then(() => 'ended' as const),
        new Promise<'still waiting'>((resolve) => setTimeout(() => resolve('still waiting'), 10_000).unref()),
      ]);
      expect(outcome).toBe('ended');
    } finally {
      await policies.close();
      await test.close();
    }
  });
});
