// Claims about separate processes, tested with real ones: several processes
// opening the store on a fresh database at once migrate it exactly once, and a
// process killed in the middle of an append leaves nothing of its batch.
import pg from 'pg';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/index.js';
import { migrateToLatest } from '../../src/infrastructure/postgres/migrate.js';
import { migrations } from '../../src/infrastructure/postgres/migrations/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { newEvent, newEvents } from './event-store-fixtures.js';

const databases: TestDatabase[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(databases.map((database) => database.drop()));
});

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase('pg_processes');
  databases.push(database);
  return database;
}

/** Runs an ES module snippet in a child Node process that can import the TypeScript sources. */
function node(code: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return child;
}

async function exitOf(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stderr };
}

async function scalar(url: string, query: string, values: unknown[] = []): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return String(Object.values((await client.query<Record<string, unknown>>(query, values)).rows[0] ?? { none: 'none' })[0]);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL store across processes', () => {
  it('processes opening the store on a fresh database at once migrate it exactly once, and all can append', async () => {
    const database = await freshDatabase();
    const code = `
      import { openPostgresEventStore } from './src/infrastructure/event-store/postgres/index.ts';
      import { randomUUID } from 'node:crypto';
      const store = await openPostgresEventStore(process.env.URL);
      await store.append('proc-' + process.pid, [{ id: randomUUID(), type: 'Started', data: {}, metadata: { schemaVersion: 1 } }], { expectedRevision: 'no_stream' });
      await store.close();
    `;
    const results = await Promise.all(Array.from({ length: 4 }, () => exitOf(node(code, { URL: database.url }))));
    for (const result of results) expect(result).toEqual({ code: 0, stderr: '' });
    expect(await scalar(database.url, 'select count(*) from memledger_migration')).toBe(String(Object.keys(migrations).length));
    expect(await scalar(database.url, `select count(*) from events where type = 'Started'`)).toBe('4');
    // A later start has nothing left to do.
    expect(await migrateToLatest(database.url)).toEqual([]);
  });

  it('a process killed in the middle of an append leaves nothing of its batch and blocks nothing', async () => {
    const database = await freshDatabase();
    const store = await openPostgresEventStore(database.url);
    try {
      const stream = `killed-${randomUUID()}`;
      // The child appends inside a transaction it never gets to commit.
      const child = node(
        `
        import pg from 'pg';
        import { appendQuery } from './src/infrastructure/event-store/postgres/append.ts';
        const client = new pg.Client({ connectionString: process.env.URL });
        await client.connect();
        await client.query('begin');
        const events = JSON.parse(process.env.BATCH);
        await client.query(appendQuery({ stream: process.env.STREAM, events, expectedRevision: 'no_stream' }));
        process.stdout.write('appended\\n');
        await new Promise(() => {});
        `,
        { URL: database.url, STREAM: stream, BATCH: JSON.stringify(newEvents(50)) },
      );
      await once(child.stdout!, 'data');
      expect(await scalar(database.url, 'select count(*) from events where stream_name = $1', [stream])).toBe('0');
      child.kill('SIGKILL');
      await once(child, 'exit');
      // The server notices the dead session and rolls it back; this append
      // waits on the dead one's revision 0 until then, and then takes it.
      const event = newEvent();
      expect(await store.append(stream, [event], { expectedRevision: 'no_stream' })).toMatchObject({ nextExpectedRevision: 0 });
      expect((await store.readStream(stream)).map((e) => e.id)).toEqual([event.id]);
      // The global log may trail a moment behind (other files' open transactions).
      let log = await store.readAll({ filter: { streamPrefixes: [stream] } });
      while (log.length === 0) {
        await sleep(20);
        log = await store.readAll({ filter: { streamPrefixes: [stream] } });
      }
      expect(log.map((e) => e.id)).toEqual([event.id]);
    } finally {
      await store.close();
    }
  });
});
