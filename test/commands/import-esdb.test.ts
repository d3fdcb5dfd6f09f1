// A bulk import into EventStoreDB: the wire-level double refuses appends over
// the server's default MaxAppendSize (1 MiB), as 24.10 does, and 5,000 lines
// of 2 KB content in one batch (--batch-size 10000) seal to far more than
// that. The adapter cuts the batch between lines; the import succeeds whole.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importEntries, validateImportLines } from '../../src/commands/import.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startEsdbWireDouble, type EsdbWireDouble } from '../support/esdb-wire-double/server.js';

let double: EsdbWireDouble;
let database: TestDatabase;
let ledger: OpenLedger;

beforeAll(async () => {
  double = await startEsdbWireDouble({ serverFeatures: 'advertise-batch-append' });
  database = await createTestDatabase('import_esdb');
  ledger = await openLedger({
    env: {
      MEMLEDGER_EVENTSTORE_URL: double.url,
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

it('imports 5,000 lines of 2 KB content in one batch of 10,000 into a server that takes 1 MiB per append', async () => {
  const lines = Array.from({ length: 5_000 }, (_, i) => ({
    kind: 'semantic',
    key: `import.note-${i}`,
    value: { type: 'text', text: `note ${i}` },
    content: `${i} `.padEnd(2_048, 'lorem ipsum dolor sit amet '),
    source: { type: 'user_assertion', refs: [`doc://bulk/${i}`] },
  }));
  const context = { tenant: 'acme', subject: 'bulk' };
  const entries = validateImportLines(lines);

  const outcome = await importEntries(ledger, context, entries, { importId: 'bulk-1', batchSize: 10_000 });
  if (!outcome.ok) throw new Error(`import refused: ${outcome.rejection.code}`);
  const result = outcome.result;
  expect(result).toMatchObject({ lines: 5_000, rejected: [], alreadyImported: 0, batches: 1 });
  expect(result.decisions.NEW).toBe(5_000);
  const stored = await ledger.eventStore.readStream(subjectStreamName('acme', 'bulk'));
  expect(stored.filter((e) => e.type === 'MemoryRecorded')).toHaveLength(5_000);
  expect(result.revision).toBe(stored.length - 1);
});
