// A projector process for the crash tests: follows the log with small
// batches and reports each committed batch on stdout, until it is killed.
// argv: <event store url> <projections database url> <batch size>
import { openPostgresEventStore } from '../../../src/infrastructure/event-store/postgres/open.js';
import { openProjectionDatabase } from '../../../src/projections/database.js';
import { memoryProjection } from '../../../src/projections/memory/definition.js';
import { followProjection } from '../../../src/projections/runtime/follow.js';

const [storeUrl, projectionsUrl, batchSize] = process.argv.slice(2);
const store = await openPostgresEventStore(storeUrl!, { pollIntervalMs: 100, migrate: false });
const { db } = await openProjectionDatabase(projectionsUrl!, { migrate: false, poolSize: 2 });
process.stdout.write('ready\n');
await followProjection(db, store, memoryProjection, {
  signal: new AbortController().signal,
  batchSize: Number(batchSize),
  idleMs: 300,
  standbyMs: 50,
  onBatch: (p) => void process.stdout.write(`batch ${p.eventsSeen}\n`),
  onStandby: () => void process.stdout.write('standby\n'),
});
