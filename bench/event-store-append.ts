// Append throughput of the PostgreSQL event store against raw `pg` inserts of
// the same row shape (a table made LIKE events, with the same indexes),
// measured in the same run and interleaved in rounds so that noise from the
// machine hits both alike:
//   1. single-event appends with an exact expected revision from 8 concurrent
//      clients (each its own stream and connection) vs single-row INSERT +
//      COMMIT (autocommit: one round trip) from 8 concurrent clients;
//   2. 100,000 events appended in batches of 1,000 vs multi-row INSERTs of
//      1,000 rows.
import pg from 'pg';
import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../src/infrastructure/event-store/port.js';
import { openPostgresEventStore } from '../src/infrastructure/event-store/postgres/index.js';
import { migrateToLatest } from '../src/infrastructure/postgres/migrate.js';
import type { Bench, BenchContext } from './run.js';

const CLIENTS = 8;
// Many short alternating slices (ABBA), so load from elsewhere on the machine
// falls on both sides alike.
const SLICE_MS = 1_000;
const SLICES = 24;
const BULK_EVENTS = 100_000;
const BULK_BATCH = 1_000;

function event(i: number): NewEvent {
  return {
    id: randomUUID(),
    type: 'MemoryRecorded',
    data: {
      memoryId: randomUUID(),
      sequence: i,
      key: 'notification.preference',
      value: { type: 'text', text: 'sms' },
      content: 'Prefers SMS for logistics updates; never phone calls.',
      source: { type: 'user_assertion', refs: [`msg://thread-9/turn-${i}`] },
    },
    metadata: { schemaVersion: 1, correlationId: randomUUID(), actor: 'bench' },
  };
}

/** The columns a raw insert writes, in the shape the adapter stores them. */
function rawRow(stream: string, revision: number, e: NewEvent): unknown[] {
  return [stream, revision, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)];
}
const RAW_COLUMNS = 'stream_name, stream_revision, event_id, type, data, metadata, recorded_at';
const RAW_VALUES = (offset: number) =>
  `($${offset + 1}, $${offset + 2}, $${offset + 3}, $${offset + 4}, $${offset + 5}, $${offset + 6}, date_trunc('milliseconds', clock_timestamp()))`;

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** Runs `step` in a loop on every worker until the time is up; returns the steps done. */
async function forDuration(workers: number, ms: number, step: (worker: number) => Promise<void>): Promise<number> {
  const end = Date.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      while (Date.now() < end) {
        await step(worker);
        done += 1;
      }
    }),
  );
  return done;
}

function line(label: string, adapter: number, baseline: number): string {
  const rate = (n: number) => `${Math.round(n).toLocaleString('en-US')} events/s`.padStart(18);
  return `${label.padEnd(48)} adapter ${rate(adapter)}   raw ${rate(baseline)}   ratio ${(adapter / baseline).toFixed(2)}`;
}

async function singleEventAppends({ databaseUrl, print }: BenchContext): Promise<void> {
  const stores = await Promise.all(Array.from({ length: CLIENTS }, () => openPostgresEventStore(databaseUrl, { poolSize: 1 })));
  const raws = await Promise.all(Array.from({ length: CLIENTS }, () => connect(databaseUrl)));
  const streams = stores.map((_, k) => ({ name: `bench-single-${k}`, revision: -1 }));
  const rawRevisions = raws.map(() => 0);
  const adapterStep = async (k: number) => {
    const stream = streams[k]!;
    const expectedRevision = stream.revision < 0 ? 'no_stream' : stream.revision;
    stream.revision = (await stores[k]!.append(stream.name, [event(stream.revision + 1)], { expectedRevision })).nextExpectedRevision;
  };
  const rawStep = async (k: number) => {
    const revision = rawRevisions[k]!++;
    await raws[k]!.query({
      name: 'bench_raw_single',
      text: `insert into bench_raw_events (${RAW_COLUMNS}) values ${RAW_VALUES(0)}`,
      values: rawRow(`bench-raw-${k}`, revision, event(revision)),
    });
  };
  try {
    await forDuration(CLIENTS, 1_000, rawStep); // warm-up: connections, plans, caches
    await forDuration(CLIENTS, 1_000, adapterStep);
    let adapter = 0;
    let baseline = 0;
    for (let slice = 0; slice < SLICES; slice++) {
      if (slice % 4 === 0 || slice % 4 === 3) baseline += await forDuration(CLIENTS, SLICE_MS, rawStep);
      else adapter += await forDuration(CLIENTS, SLICE_MS, adapterStep);
    }
    const seconds = ((SLICES / 2) * SLICE_MS) / 1000;
    print(line(`single-event appends, ${CLIENTS} clients, exact revision`, adapter / seconds, baseline / seconds));
  } finally {
    await Promise.all([...stores.map((store) => store.close()), ...raws.map((client) => client.end())]);
  }
}

async function bulkAppends({ databaseUrl, print }: BenchContext): Promise<void> {
  const store = await openPostgresEventStore(databaseUrl, { poolSize: 1 });
  const raw = await connect(databaseUrl);
  const rawInsert = `insert into bench_raw_events (${RAW_COLUMNS}) values ${Array.from({ length: BULK_BATCH }, (_, i) => RAW_VALUES(i * 6)).join(', ')}`;
  let revision = -1;
  let rawRevision = 0;
  // Alternating chunks of 10 batches (ABBA), 100,000 events on each side.
  const CHUNK = 10 * BULK_BATCH;
  const adapterChunk = async () => {
    const started = performance.now();
    for (let done = 0; done < CHUNK; done += BULK_BATCH) {
      const batch = Array.from({ length: BULK_BATCH }, (_, i) => event(revision + 1 + i));
      const result = await store.append('bench-bulk', batch, { expectedRevision: revision < 0 ? 'no_stream' : revision });
      revision = result.nextExpectedRevision;
    }
    return performance.now() - started;
  };
  const rawChunk = async () => {
    const started = performance.now();
    for (let done = 0; done < CHUNK; done += BULK_BATCH) {
      const values = Array.from({ length: BULK_BATCH }, () => {
        const revision = rawRevision++;
        return rawRow('bench-raw-bulk', revision, event(revision));
      }).flat();
      await raw.query({ name: 'bench_raw_bulk', text: rawInsert, values });
    }
    return performance.now() - started;
  };
  try {
    let adapterMs = 0;
    let baselineMs = 0;
    for (let chunk = 0; chunk < (2 * BULK_EVENTS) / CHUNK; chunk++) {
      if (chunk % 4 === 0 || chunk % 4 === 3) baselineMs += await rawChunk();
      else adapterMs += await adapterChunk();
    }
    print(
      line(
        `bulk: ${BULK_EVENTS.toLocaleString('en-US')} events in batches of ${BULK_BATCH}`,
        BULK_EVENTS / (adapterMs / 1000),
        BULK_EVENTS / (baselineMs / 1000),
      ),
    );
  } finally {
    await Promise.all([store.close(), raw.end()]);
  }
}

export const eventStoreAppendBench: Bench = {
  name: 'event-store-append',
  async run(context) {
    await migrateToLatest(context.databaseUrl);
    const client = await connect(context.databaseUrl);
    try {
      await client.query('create table bench_raw_events (like events including all)');
    } finally {
      await client.end();
    }
    await singleEventAppends(context);
    await bulkAppends(context);
  },
};
