// The contract suite on an external PostgreSQL given by
// MEMLEDGER_TEST_DATABASE_URL (e.g. the machine's PostgreSQL 15 in CI), in a
// fresh database created on that server for this run.
import { beforeAll, describe, it } from 'vitest';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/index.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { describeEventStoreContract } from './event-store.contract.js';
import { postgresClock } from './postgres-clock.js';

const serverUrl = process.env.MEMLEDGER_TEST_DATABASE_URL;

if (serverUrl) {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('contract_pg_external', serverUrl);
  });
  describeEventStoreContract({
    name: `PostgreSQL (external, ${new URL(serverUrl).host})`,
    open: () => openPostgresEventStore(database.url, { poolSize: 4, pollIntervalMs: 100 }),
    close: () => database.drop(),
    capabilities: { clock: postgresClock(() => database.url) },
  });
} else {
  const reason = 'MEMLEDGER_TEST_DATABASE_URL is not set: no external PostgreSQL to run the contract suite against';
  console.info(`skipped: ${reason}`);
  describe.skip('event store contract: PostgreSQL (external)', () => {
    it(reason, () => undefined);
  });
}
