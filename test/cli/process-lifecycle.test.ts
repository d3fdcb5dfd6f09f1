// The CLI process at its edges (issue 12, item 10): --version, a bad master
// key refused as bad configuration before anything starts, and serve on a
// busy port refused at once, on a data folder nothing was created in.
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, unconfiguredEnvironment } from '../support/cli.js';

const folders: string[] = [];
const servers: Server[] = [];
afterAll(async () => {
  servers.forEach((server) => server.close());
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function freshDataDir(): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'memledger-cli-edges-'));
  folders.push(parent);
  return join(parent, 'data');
}

describe('the memledger process', () => {
  it('prints its version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const run = await runCli(['--version'], {});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(version);
  });

  it('refuses a bad MEMLEDGER_MASTER_KEY with exit 2 naming the variable, before starting any server', async () => {
    const dataDir = await freshDataDir();
    const run = await runCli(['events', '--tenant', 't', '--subject', 's'], {
      ...unconfiguredEnvironment(dataDir),
      MEMLEDGER_MASTER_KEY: 'c2hvcnQ=',
    });
    expect(run.code).toBe(2);
    expect(JSON.parse(run.stderr)).toMatchObject({ error: 'invalid_config', field: 'MEMLEDGER_MASTER_KEY' });
    expect(existsSync(join(dataDir, 'pg'))).toBe(false);
  });

  it('refuses to serve on a port another program listens on: exit 1, a message naming it, nothing started', async () => {
    const server = createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
    const { port } = server.address() as { port: number };
    const dataDir = await freshDataDir();
    const run = await runCli(['serve', '--port', String(port)], unconfiguredEnvironment(dataDir));
    expect(run.code).toBe(1);
    const error = JSON.parse(run.stderr) as { error: string; message: string; field: string };
    expect(error).toMatchObject({ error: 'port_in_use', field: 'port' });
    expect(error.message).toContain(`127.0.0.1:${port}`);
    expect(existsSync(dataDir)).toBe(false);
  });
});
