// `npm run bench [name-filter ...]`: runs every benchmark (or those whose name
// contains one of the filters), each in a fresh database on the bench server,
// and prints its figures. Benchmarks print; they never assert.
import pg from 'pg';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { acquireEmbeddedServer } from '../src/infrastructure/embedded-postgres/index.js';
import { cliLatencyBench } from './cli-latency.js';
import { consolidationBench } from './consolidation.js';
import { erasureBench } from './erasure.js';
import { eventStoreAppendBench } from './event-store-append.js';
import { feedbackLatencyBench } from './feedback-latency.js';
import { httpLoadBench } from './http-load.js';
import { projectionRebuildBench } from './projection-rebuild.js';
import { readLatencyBench } from './read-latency.js';
import { recallQueryBench } from './recall-query.js';
import { recordLatencyBench } from './record-latency.js';
import { retrievalQualityBench } from './retrieval-quality.js';
import { retrievalSpeedBench } from './retrieval-speed.js';

export interface BenchContext {
  /** A fresh, empty database for this benchmark alone. */
  readonly databaseUrl: string;
  /** Prints one line of results. */
  readonly print: (line: string) => void;
}

export interface Bench {
  readonly name: string;
  /** False: the benchmark is in-process only and gets no database (databaseUrl is empty). */
  readonly needsDatabase?: boolean;
  readonly run: (context: BenchContext) => Promise<void>;
}

/** Every benchmark, in the order they run. To add one: import it and list it here. */
const benches: readonly Bench[] = [
  eventStoreAppendBench,
  recordLatencyBench,
  cliLatencyBench,
  consolidationBench,
  httpLoadBench,
  readLatencyBench,
  projectionRebuildBench,
  erasureBench,
  retrievalQualityBench,
  retrievalSpeedBench,
  recallQueryBench,
  feedbackLatencyBench,
];

/**
 * The server benchmarks run on (an admin URL; each bench gets its own
 * database there). The one place to rewire when the embedded server is used.
 */
async function benchServerUrl(): Promise<{ url: string; release: () => Promise<void> }> {
  const configured = process.env.MEMLEDGER_BENCH_DATABASE_URL;
  if (configured) return { url: configured, release: async () => {} };
  // The embedded server, durable (fsync on) so figures are those of a real deployment.
  const dataDir = await mkdtemp(join(tmpdir(), 'memledger-bench-'));
  const server = await acquireEmbeddedServer({ dataDir });
  return {
    url: server.adminUrl,
    release: async () => {
      await server.release();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function withDatabase<T>(serverUrl: string, name: string, use: (url: string) => Promise<T>): Promise<T> {
  const database = `bench_${name.replace(/[^a-z0-9]/gi, '_').toLowerCase()}_${randomBytes(3).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database "${database}"`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    return await use(url.toString());
  } finally {
    await admin(`drop database if exists "${database}" with (force)`);
  }
}

async function main(filters: string[]): Promise<void> {
  const selected = benches.filter((bench) => filters.length === 0 || filters.some((filter) => bench.name.includes(filter)));
  if (selected.length === 0) {
    console.error(`no benchmark matches ${filters.join(', ')}; known: ${benches.map((bench) => bench.name).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const print = (line: string) => console.log(`  ${line}`);
  const server = selected.some((bench) => bench.needsDatabase !== false) ? await benchServerUrl() : undefined;
  try {
    for (const bench of selected) {
      console.log(`\n${bench.name}`);
      const started = Date.now();
      if (bench.needsDatabase === false || !server) await bench.run({ databaseUrl: '', print });
      else await withDatabase(server.url, bench.name, (databaseUrl) => bench.run({ databaseUrl, print }));
      console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    }
  } finally {
    await server?.release();
  }
}

await main(process.argv.slice(2));
