// A bulk import into EventStoreDB: the wire-level double refuses appends over
// the server's default MaxAppendSize (1 MiB), as 24.10 does, and 5,000 lines
// of 2 KB content in one batch (--batch-size 10000) seal to far more than
// that. The adapter cuts the batch between lines; the import succeeds whole.
import { expect, it } from 'vitest';
import { useLedgerOn } from '../support/ledger-on-store.js';
import { importEntries, validateImportLines } from '../../src/commands/import.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';

const world = useLedgerOn('esdb', 'import_esdb');

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

  const outcome = await importEntries(world.ledger, context, entries, { importId: 'bulk-1', batchSize: 10_000 });
  if (!outcome.ok) throw new Error(`import refused: ${outcome.rejection.code}`);
  const result = outcome.result;
  expect(result).toMatchObject({ lines: 5_000, rejected: [], alreadyImported: 0, batches: 1 });
  expect(result.decisions.NEW).toBe(5_000);
  const stored = await world.ledger.eventStore.readStream(subjectStreamName('acme', 'bulk'));
  expect(stored.filter((e) => e.type === 'MemoryRecorded')).toHaveLength(5_000);
  expect(result.revision).toBe(stored.length - 1);
});
