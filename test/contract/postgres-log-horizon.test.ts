// PostgreSQL's global log shows a commit only once every older transaction
// on the server has ended (log-order.ts). awaitCommitted waits for exactly
// that: while a transaction that began before an append is still open it
// does not resolve (LogHorizonTimeout with a short timeout), and once that
// transaction ends it resolves and the log shows the append.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogHorizonTimeout, type EventStore } from '../../src/infrastructure/event-store/port.js';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { newEvents } from './event-store-fixtures.js';

let database: TestDatabase;
let store: EventStore;
beforeAll(async () => {
  database = await createTestDatabase('log_horizon');
  store = await openPostgresEventStore(database.url, { poolSize: 4, pollIntervalMs: 100 });
});
afterAll(async () => {
  await store?.close();
  await database?.drop();
});

describe('PostgreSQL: awaitCommitted and an older open transaction', () => {
  it('waits while a transaction older than the append is open, then the log shows the append', async () => {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('select pg_current_xact_id()'); // takes an xid: from now on it holds the log's stable cut back
      const stream = `horizon-${randomUUID()}`;
      const events = newEvents(2);
      await store.append(stream, events, { expectedRevision: 'no_stream' });
      expect(await store.readStream(stream)).toHaveLength(2); // the stream shows it at once

      await expect(store.awaitCommitted({ timeoutMs: 300 })).rejects.toBeInstanceOf(LogHorizonTimeout);
      const waiting = store.awaitCommitted({ timeoutMs: 60_000 });
      await holder.query('COMMIT');
      await waiting;
      const log = await store.readAll({ filter: { streamPrefixes: [stream] } });
      expect(log.map((e) => e.id)).toEqual(events.map((e) => e.id));
    } finally {
      await holder.end();
    }
  });
});
