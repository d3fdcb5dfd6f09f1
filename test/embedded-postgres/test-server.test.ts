// The run's shared server (test/support/global-setup.ts) reaches test files
// and the processes they start.
import { execFileSync } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testServerUrl, type TestDatabase } from '../support/database.js';

describe('the test run server', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('test_server');
  });
  afterAll(async () => {
    await database.drop();
  });

  it('is handed to test files as a superuser URL that creates working databases', async () => {
    const admin = new pg.Client({ connectionString: testServerUrl() });
    await admin.connect();
    try {
      const role = await admin.query<{ super: boolean }>('SELECT rolsuper AS super FROM pg_roles WHERE rolname = current_user');
      expect(role.rows[0]?.super).toBe(true);
    } finally {
      await admin.end();
    }
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const result = await client.query<{ db: string }>('SELECT current_database() AS db');
      expect(database.url.endsWith(`/${result.rows[0]?.db}`)).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('is inherited by child processes of a test file', () => {
    const seen = execFileSync(process.execPath, ['-e', 'process.stdout.write(process.env.MEMLEDGER_TEST_SERVER_URL ?? "")'], {
      encoding: 'utf8',
    });
    expect(seen).toBe(testServerUrl());
  });
});
