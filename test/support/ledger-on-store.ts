// A ledger for one test file, on the embedded PostgreSQL alone or with the
// EventStoreDB wire double as its event store: opened before the file's
// tests, closed (ledger, database, double) after them.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { createTestDatabase, type TestDatabase } from './database.js';
import { startEsdbWireDouble, type EsdbWireDouble } from './esdb-wire-double/server.js';

export type TestStore = 'postgres' | 'esdb';

export interface LedgerOnStore {
  readonly ledger: OpenLedger;
  /** The wire double (esdb only). */
  readonly double: EsdbWireDouble;
}

export function useLedgerOn(store: TestStore, databaseName: string): LedgerOnStore {
  let double: EsdbWireDouble | undefined;
  let database: TestDatabase | undefined;
  let ledger: OpenLedger | undefined;
  beforeAll(async () => {
    if (store === 'esdb') double = await startEsdbWireDouble({ serverFeatures: 'advertise-batch-append' });
    database = await createTestDatabase(databaseName);
    ledger = await openLedger({
      env: {
        ...(double ? { MEMLEDGER_EVENTSTORE_URL: double.url } : {}),
        MEMLEDGER_DATABASE_URL: database.url,
        MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'),
      },
    });
  });
  afterAll(async () => {
    await ledger?.close();
    await database?.drop();
    await double?.close();
  });
  return {
    get ledger() {
      if (!ledger) throw new Error('the ledger opens before the tests');
      return ledger;
    },
    get double() {
      if (!double) throw new Error(`no wire double on ${store}`);
      return double;
    },
  };
}
