// Configuration from the environment: typed errors naming the variable, and
// the embedded server when nothing is configured.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, readConfig, resolveConnections } from '../../src/infrastructure/config.js';
import { freshFolder, postmastersOf } from './fixtures/server-users.js';

function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('readConfig', () => {
  it.each([
    ['MEMLEDGER_EVENTSTORE_URL', 'mysql://root@localhost/memledger'],
    ['MEMLEDGER_EVENTSTORE_URL', 'localhost:5432'],
    ['MEMLEDGER_EVENTSTORE_URL', 'http://localhost:2113'],
    // Schemes of the later KurrentDB clients, which client 6.2.1 refuses.
    ['MEMLEDGER_EVENTSTORE_URL', 'kurrentdb://localhost:2113?tls=false'],
    ['MEMLEDGER_EVENTSTORE_URL', 'kdb+discover://localhost:2113?tls=false'],
    ['MEMLEDGER_DATABASE_URL', 'esdb://localhost:2113?tls=false'],
    ['MEMLEDGER_DATABASE_URL', 'not a url'],
  ])('rejects %s=%s with a ConfigError naming the variable', (variable, value) => {
    const error = configError(() => readConfig({ [variable]: value }, '/srv'));
    expect(error.variable).toBe(variable);
    expect(error.message).toContain(variable);
  });

  it('requires MEMLEDGER_DATABASE_URL when the event store is EventStoreDB', () => {
    const error = configError(() => readConfig({ MEMLEDGER_EVENTSTORE_URL: 'esdb://localhost:2113?tls=false' }, '/srv'));
    expect(error.variable).toBe('MEMLEDGER_DATABASE_URL');
  });

  it('reads an EventStoreDB event store with PostgreSQL projections', () => {
    const config = readConfig(
      {
        MEMLEDGER_EVENTSTORE_URL: 'esdb+discover://node1:2113,node2:2113?tls=false',
        MEMLEDGER_DATABASE_URL: 'postgresql://app:pw@db:5432/memledger',
      },
      '/srv',
    );
    expect(config.eventStore).toEqual({ kind: 'esdb', url: 'esdb+discover://node1:2113,node2:2113?tls=false' });
    expect(config.databaseUrl).toBe('postgresql://app:pw@db:5432/memledger');
  });

  it('defaults the data folder to ./.memledger and treats empty variables as unset', () => {
    expect(readConfig({}, '/srv/app')).toEqual({ dataDir: '/srv/app/.memledger', embeddedLingerMs: 300_000 });
    expect(
      readConfig(
        { MEMLEDGER_EVENTSTORE_URL: '', MEMLEDGER_DATABASE_URL: ' ', MEMLEDGER_DATA_DIR: '', MEMLEDGER_EMBEDDED_LINGER_SECONDS: '' },
        '/srv/app',
      ),
    ).toEqual({ dataDir: '/srv/app/.memledger', embeddedLingerMs: 300_000 });
    expect(readConfig({ MEMLEDGER_DATA_DIR: 'state/ledger' }, '/srv/app').dataDir).toBe('/srv/app/state/ledger');
    expect(readConfig({ MEMLEDGER_EMBEDDED_LINGER_SECONDS: '0' }).embeddedLingerMs).toBe(0);
  });

  it.each(['-1', '1.5', '86401', 'soon'])('rejects MEMLEDGER_EMBEDDED_LINGER_SECONDS=%s naming the variable', (value) => {
    expect(() => readConfig({ MEMLEDGER_EMBEDDED_LINGER_SECONDS: value })).toThrow(
      expect.objectContaining({ variable: 'MEMLEDGER_EMBEDDED_LINGER_SECONDS' }),
    );
  });
});

describe('resolveConnections', () => {
  const folders: string[] = [];
  afterAll(async () => {
    for (const dir of folders) await rm(dir, { recursive: true, force: true });
  });

  it('uses a configured PostgreSQL event store for the projections too, starting nothing', async () => {
    const parent = await freshFolder();
    folders.push(parent);
    const dataDir = join(parent, 'unused');
    const url = 'postgres://app:pw@db.example:5432/ledger';
    const connections = await resolveConnections({ env: { MEMLEDGER_EVENTSTORE_URL: url, MEMLEDGER_DATA_DIR: dataDir } });
    expect(connections).toMatchObject({ eventStore: { kind: 'postgres', url }, databaseUrl: url, embedded: false });
    await connections.release();
    expect(existsSync(dataDir)).toBe(false);
  });

  it('throws the ConfigError before starting anything', async () => {
    const parent = await freshFolder();
    folders.push(parent);
    const dataDir = join(parent, 'unused');
    await expect(resolveConnections({ env: { MEMLEDGER_EVENTSTORE_URL: 'redis://x', MEMLEDGER_DATA_DIR: dataDir } })).rejects.toMatchObject(
      {
        name: 'ConfigError',
        variable: 'MEMLEDGER_EVENTSTORE_URL',
      },
    );
    expect(existsSync(dataDir)).toBe(false);
  });

  it('with nothing configured (and no linger), runs everything on the data folder embedded server, until released', async () => {
    const dataDir = await freshFolder();
    folders.push(dataDir);
    const connections = await resolveConnections({
      env: { MEMLEDGER_DATA_DIR: dataDir, MEMLEDGER_EMBEDDED_LINGER_SECONDS: '0' },
      embedded: { durable: false },
    });
    try {
      expect(connections.embedded).toBe(true);
      expect(connections.eventStore.kind).toBe('postgres');
      expect(connections.databaseUrl).toBe(connections.eventStore.url);
      const client = new pg.Client({ connectionString: connections.databaseUrl });
      await client.connect();
      try {
        const result = await client.query<{ db: string }>('SELECT current_database() AS db');
        expect(result.rows[0]?.db).toBe('memledger');
      } finally {
        await client.end();
      }
      expect(postmastersOf(dataDir)).toHaveLength(1);
    } finally {
      await connections.release();
    }
    expect(postmastersOf(dataDir)).toEqual([]);
  });
});
