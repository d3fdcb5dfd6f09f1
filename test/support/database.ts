// A fresh database per test file on the run's shared server, so files can run
// in parallel without seeing each other's rows.
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

export function testServerUrl(): string {
  const url = process.env.MEMLEDGER_TEST_SERVER_URL;
  if (!url) throw new Error('MEMLEDGER_TEST_SERVER_URL is not set: run the tests through vitest (test/support/global-setup.ts)');
  return url;
}

export async function createTestDatabase(prefix = 'test', serverUrl = testServerUrl()): Promise<TestDatabase> {
  const name = `${prefix.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
