// A ledger on a fresh test database, for in-process command tests.
import { randomBytes } from 'node:crypto';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export interface TestLedger {
  readonly ledger: OpenLedger;
  readonly database: TestDatabase;
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

export async function openTestLedger(prefix: string, clock?: () => Date): Promise<TestLedger> {
  const database = await createTestDatabase(prefix);
  const env = { MEMLEDGER_EVENTSTORE_URL: database.url, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') };
  const ledger = await openLedger({ env, ...(clock ? { clock } : {}) });
  return {
    ledger,
    database,
    env,
    async close() {
      await ledger.close();
      await database.drop();
    },
  };
}
