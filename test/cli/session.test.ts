// One CLI invocation (src/cli/session.ts) on a real server whose connections
// die after the command has its answer, as the last process stopping the
// embedded server did to them (57P01, issue 12 item 4): the answer is printed,
// nothing reaches stderr and the exit code stays 0. Shutdown is not the command's.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { run } from '../../src/cli/session.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

let database: TestDatabase;
let admin: pg.Client;
const saved = { ...process.env };
beforeAll(async () => {
  database = await createTestDatabase('session');
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  process.env.MEMLEDGER_EVENTSTORE_URL = database.url;
  process.env.MEMLEDGER_MASTER_KEY = randomBytes(32).toString('base64');
});
afterAll(async () => {
  process.env = saved;
  await admin.end();
  await database.drop();
});

/** Ends every session of ours on the database, as a server shutting down does, and waits until they are gone. */
async function terminateOurSessions(): Promise<number> {
  const ours = "datname = current_database() AND application_name LIKE 'memledger%' AND pid <> pg_backend_pid()";
  const { rows } = await admin.query<{ pid: number }>(`SELECT pg_terminate_backend(pid) AS done, pid FROM pg_stat_activity WHERE ${ours}`);
  for (;;) {
    const left = await admin.query(`SELECT 1 FROM pg_stat_activity WHERE ${ours}`);
    if (left.rowCount === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  // Let the clients read the server's goodbye (an ErrorResponse 57P01, then EOF).
  await new Promise((resolve) => setTimeout(resolve, 100));
  return rows.length;
}

describe('a CLI command whose connections die after its answer', () => {
  it('prints the answer and exits 0, with nothing on stderr', async () => {
    const stdout: string[] = [];
    const stderr: string[] = [];
    const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true));
    const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true));
    let terminated = 0;
    try {
      await run(async (ledger) => {
        const { eventStore, keyStore } = await ledger();
        await keyStore.subjectKeys({ tenant: 'acme', subject: 'u1' }, { create: true });
        const events = await eventStore.readStream('subject-none', {});
        terminated = await terminateOurSessions();
        return { events: events.length };
      });
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
    expect(terminated).toBeGreaterThan(1);
    expect(JSON.parse(stdout.join(''))).toEqual({ events: 0 });
    expect(stderr).toEqual([]);
    expect(process.exitCode ?? 0).toBe(0);
  });
});
