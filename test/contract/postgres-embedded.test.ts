// The contract suite on the run's PostgreSQL server (the embedded one the
// global setup starts), in a database of its own.
import { beforeAll } from 'vitest';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { postgresClock } from './postgres-clock.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('contract_pg');
});

describeEventStoreContract({
  name: 'PostgreSQL (test server)',
  open: () => openPostgresEventStore(database.url, { poolSize: 4, pollIntervalMs: 100 }),
  close: () => database.drop(),
  capabilities: { clock: postgresClock(() => database.url) },
});
