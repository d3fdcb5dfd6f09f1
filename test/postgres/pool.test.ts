// The pools memledger opens (src/infrastructure/postgres/pool.ts) against a
// real server: a connection the server drops never kills the process, and
// close() means closed, so whoever stops the server next finds no
// connection of ours left to terminate (issue 12, items 3 and 4), and a
// statement the server refuses costs no connection (issue 20).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/infrastructure/api-keys/api-key-store.js';
import { Pool } from '../../src/infrastructure/postgres/pool.js';
import { PostgresRetentionPolicies } from '../../src/infrastructure/retention/postgres-retention-policies.js';
import { openProjectionDatabase } from '../../src/projections/index.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { sql } from 'kysely';

let database: TestDatabase;
let admin: pg.Client;
beforeAll(async () => {
  database = await createTestDatabase('pool');
  admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
});
afterAll(async () => {
  await admin.end();
  await database.drop();
});

async function backends(applicationName: string): Promise<number[]> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND pid <> pg_backend_pid()',
    [applicationName],
  );
  return rows.map((row) => row.pid);
}

/** As a restart or an operator would: the server ends the sessions, and we wait until they are gone. */
async function terminate(applicationName: string): Promise<number> {
  const pids = await backends(applicationName);
  await admin.query('SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid', [pids]);
  while ((await backends(applicationName)).length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
  // Let the clients read the server's goodbye (an ErrorResponse 57P01, then EOF).
  await new Promise((resolve) => setTimeout(resolve, 50));
  return pids.length;
}

describe('a memledger pool', () => {
  it('resolves end() only once every connection is closed', async () => {
    const pool = new Pool({ connectionString: database.url, max: 4, application_name: 'pool-end' });
    const clients: pg.Client[] = [];
    const ended = new Set<pg.Client>();
    pool.on('connect', (client: pg.Client) => {
      clients.push(client);
      client.once('end', () => ended.add(client));
    });
    const held = await Promise.all([pool.connect(), pool.connect(), pool.connect()]);
    await Promise.all(held.map((client) => client.query('SELECT 1')));
    held.forEach((client) => client.release());
    await pool.end();
    expect(clients).toHaveLength(3);
    expect(ended.size).toBe(3);
    expect(await backends('pool-end')).toEqual([]);
  });

  it('survives the server dropping a checked-out connection: that query fails, the next one gets a fresh connection', async () => {
    const pool = new Pool({ connectionString: database.url, max: 2, application_name: 'pool-checked-out' });
    const client = await pool.connect();
    await client.query('BEGIN');
    expect(await terminate('pool-checked-out')).toBe(1);
    const failed = await client.query('SELECT 1').then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(Error);
    client.release(failed as Error);
    expect((await pool.query<{ one: number }>('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.end();
  });

  it("keeps a connection whose statement the server refused (pg.Pool's query would close it), and drops one the server ended", async () => {
    const pool = new Pool({ connectionString: database.url, max: 1, application_name: 'pool-kept' });
    const pid = async () => (await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const first = await pid();
    await pool.query('CREATE TEMPORARY TABLE kept (id int PRIMARY KEY)');
    await pool.query({ name: 'kept_insert', text: 'INSERT INTO kept VALUES ($1)', values: [1] });
    // A unique violation, a division by zero, a statement that does not parse: ERRORs on a session that goes on.
    for (const refused of [
      pool.query({ name: 'kept_insert', text: 'INSERT INTO kept VALUES ($1)', values: [1] }),
      pool.query('SELECT 1 / 0'),
      pool.query({ name: 'kept_broken', text: 'SELEC 1', values: [] }),
    ])
      await expect(refused).rejects.toBeInstanceOf(pg.DatabaseError);
    expect(await pid()).toBe(first);
    // The same session: its temporary table and its prepared statement are still there.
    await pool.query({ name: 'kept_insert', text: 'INSERT INTO kept VALUES ($1)', values: [2] });
    expect((await pool.query<{ n: string }>('SELECT count(*) AS n FROM kept')).rows).toEqual([{ n: '2' }]);
    // A FATAL ends the session: the pool opens a fresh one.
    await expect(pool.query('SELECT pg_terminate_backend(pg_backend_pid())')).rejects.toBeInstanceOf(Error);
    expect(await pid()).not.toBe(first);
    // Callbacks still take pg.Pool's own way.
    const viaCallback = await new Promise<number>((resolve, reject) =>
      pool.query<{ one: number }>('SELECT 1 AS one', (error, result) => (error ? reject(error) : resolve(result.rows[0]!.one))),
    );
    expect(viaCallback).toBe(1);
    await pool.end();
  });
});

describe('every store on a memledger pool', () => {
  let ledger: OpenLedger;
  beforeAll(async () => {
    ledger = await openLedger({
      env: { MEMLEDGER_EVENTSTORE_URL: database.url, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
    });
  });
  afterAll(async () => {
    await ledger.close();
  });

  it('keeps working after the server drops its idle connections, and closes them all before close() resolves', async () => {
    const apiKeys = new ApiKeyStore(database.url);
    const retention = new PostgresRetentionPolicies(database.url);
    const projections = await openProjectionDatabase(database.url);
    const use = async () => {
      await ledger.eventStore.readStream('subject-none', {});
      await ledger.keyStore.subjectKeys({ tenant: 't', subject: 's' }, { create: true });
      await apiKeys.list();
      await retention.tenants();
      await sql`SELECT 1`.execute(projections.db);
    };
    await use();
    for (const name of ['memledger', 'memledger-key-store', 'memledger-api-keys', 'memledger-retention', 'memledger-projections']) {
      expect(await terminate(name), name).toBeGreaterThan(0);
    }
    await use();

    await Promise.all([apiKeys.close(), retention.close(), projections.close()]);
    for (const name of ['memledger-api-keys', 'memledger-retention', 'memledger-projections'])
      expect(await backends(name), name).toEqual([]);
  });
});
