// Starts one PostgreSQL server for the whole test run and hands its admin URL
// to the test files as MEMLEDGER_TEST_SERVER_URL; each file makes its own
// database on it (test/support/database.ts). Test workers and the child
// processes they spawn inherit the variable from this process.
//
// When MEMLEDGER_TEST_SERVER_URL is already set (an outside server), that one
// is used and nothing is started. Otherwise the embedded server runs in a
// throwaway folder, without fsync (nothing there must survive a power cut).
//
// It also compiles the sources once (compiled-sources.ts) for the child
// processes the tests start, and hands the folder on as MEMLEDGER_TEST_COMPILED.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireEmbeddedServer } from '../../src/infrastructure/embedded-postgres/index.js';
import { compileSources } from './compiled-sources.js';

export default async function setup(): Promise<() => Promise<void>> {
  const compiled = await compileSources();
  const server = await startServer();
  return async () => {
    compiled.remove();
    await server();
  };
}

async function startServer(): Promise<() => Promise<void>> {
  if (process.env.MEMLEDGER_TEST_SERVER_URL) return async () => {};
  const dataDir = await mkdtemp(join(tmpdir(), 'memledger-test-server-'));
  const server = await acquireEmbeddedServer({ dataDir, durable: false });
  process.env.MEMLEDGER_TEST_SERVER_URL = server.adminUrl;
  return async () => {
    delete process.env.MEMLEDGER_TEST_SERVER_URL;
    await server.release();
    await rm(dataDir, { recursive: true, force: true });
  };
}
