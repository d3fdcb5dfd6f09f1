// `npm run bench -- recall-query`: recall with a query (top 20) on one
// subject of 1,000 and one of 10,000 memories, over a memory_versions table
// grown to MEMLEDGER_BENCH_BACKGROUND_VERSIONS versions in all, in process
// (`recall(read, { query, topK })`) and over HTTP (`GET
// /v1/subjects/{s}/recall?query=…&topK=20`, the service started in this
// process, autocannon at concurrency 8), each against plain BM25 (minisearch
// defaults) over the same texts, already decrypted, in the same run. The
// per-subject retrieval index is cached by subject revision, so the first
// query after a write (cold: decrypt and build the index) and the warm
// queries are reported apart. Goal: warm p99 <= 50 ms at 1,000 memories in
// process, <= 250 ms at 10,000.
//
// The measured subjects are imported through the ledger (sealed, real
// keys) and projected; the background versions are bulk inserted by SQL
// (bench/read-latency.ts fillVersions) and never read.
//   MEMLEDGER_BENCH_BACKGROUND_VERSIONS  memory versions in all (default 250000; the issue's figure is 1000000)
//   MEMLEDGER_BENCH_RECALL_SAMPLES       timed warm queries per subject in process (default 200; half at 10,000)
//   MEMLEDGER_BENCH_RECALL_HTTP_REQUESTS warm HTTP requests per subject (default 400; half at 10,000)
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { pino } from 'pino';
import { readServiceConfig } from '../src/api/service/service-config.js';
import { startService } from '../src/api/service/start-service.js';
import { importEntries } from '../src/commands/import.js';
import { recordMemory } from '../src/commands/record.js';
import { ApiKeyStore } from '../src/infrastructure/api-keys/api-key-store.js';
import { catchUp, openReadSide, type OpenReadSide } from '../src/queries/read-side.js';
import { recall } from '../src/queries/recall/recall.js';
import { openLedger, type OpenLedger } from '../src/runtime/open-ledger.js';
import { fillVersions, interleaved, setting } from './read-latency.js';
import { percentile } from './support/percentile.js';
import { measuredSubject, type MeasuredSubject } from './recall-query/subject.js';
import { plainIndex } from './retrieval-speed.js';
import type { Bench } from './run.js';

const TENANT = 'bench';
const SIZES = [1_000, 10_000] as const;
const TOP_K = 20;
const CONNECTIONS = 8;
const COLD_ROUNDS = 5;

const ms = (n: number) => `${n.toFixed(2)} ms`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const subjectName = (size: number) => `measured-${size}`;

/** A new memory in the subject, so that the next query finds its index stale. */
const freshEntry = (round: number) => ({
  kind: 'episodic',
  key: `chat.turn.cold${round}`,
  value: { type: 'text', text: 'small talk' },
  content: `Round ${round}: she asked again whether the delayed order ships this week.`,
  source: { type: 'user_assertion', refs: [`msg://cold/${round}`] },
});

async function seed(ledger: OpenLedger, read: OpenReadSide, subjects: ReadonlyMap<number, MeasuredSubject>, background: number) {
  for (const [size, subject] of subjects) {
    const outcome = await importEntries(ledger, { tenant: TENANT, subject: subjectName(size) }, subject.entries, {
      importId: subjectName(size),
      batchSize: 1000,
    });
    if (!outcome.ok) throw new Error(`import refused: ${JSON.stringify(outcome.rejection)}`);
  }
  const [caught] = await catchUp(read);
  const table = sql.table(`${caught!.schema}.memory_versions`);
  const count = async () => Number((await sql<{ n: string }>`select count(*) as n from ${table}`.execute(read.projections)).rows[0]!.n);
  const measured = await count();
  await fillVersions(read.projections, caught!.schema, Math.max(0, background - measured), Math.max(1, Math.round(background / 100)));
  return { measured, total: await count() };
}

async function inProcess(print: (line: string) => void, ledger: OpenLedger, read: OpenReadSide, size: number, subject: MeasuredSubject) {
  const name = subjectName(size);
  const ask = (query: string) => recall(read, { tenant: TENANT, subject: name, query, topK: TOP_K });
  const plainBuild: number[] = [];
  let plain = plainIndex(subject.texts);
  const cold: number[] = [];
  for (let round = 0; round < COLD_ROUNDS; round++) {
    const written = await recordMemory(ledger, { tenant: TENANT, subject: name }, freshEntry(round));
    if (!written.ok) throw new Error(`record refused: ${JSON.stringify(written.rejection)}`);
    await catchUp(read);
    let started = performance.now();
    await ask(subject.queries[round % subject.queries.length]!);
    cold.push(performance.now() - started);
    started = performance.now();
    plain = plainIndex(subject.texts);
    plain.search(subject.queries[round % subject.queries.length]!);
    plainBuild.push(performance.now() - started);
  }
  const median = (xs: number[]) =>
    percentile(
      [...xs].sort((a, b) => a - b),
      50,
    );
  print(
    `  in process, cold (first query after a write, ${COLD_ROUNDS} rounds): memledger median ${ms(median(cold))}, max ${ms(Math.max(...cold))}; ` +
      `plain BM25 build + query median ${ms(median(plainBuild))} (${ratio(median(cold), median(plainBuild))})`,
  );
  const samples = Math.max(1, Math.round(setting('MEMLEDGER_BENCH_RECALL_SAMPLES', 200) / (size > 1_000 ? 2 : 1)));
  for (let i = 0; i < 10; i++) await ask(subject.queries[i % subject.queries.length]!);
  let a = 0;
  let b = 0;
  const figures = await interleaved(samples, [
    ['memledger', () => ask(subject.queries[a++ % subject.queries.length]!)],
    ['bm25', () => Promise.resolve(plain.search(subject.queries[b++ % subject.queries.length]!).slice(0, TOP_K))],
  ]);
  const ours = figures.get('memledger')!;
  const base = figures.get('bm25')!;
  const goal = size <= 1_000 ? 50 : 250;
  print(
    `  in process, warm (${samples} queries): memledger p50 ${ms(ours.p50)}, p99 ${ms(ours.p99)} (goal <= ${goal} ms: ${ours.p99 <= goal ? 'met' : 'not met'}); ` +
      `plain BM25 p50 ${ms(base.p50)}, p99 ${ms(base.p99)}; ratio p50 ${ratio(ours.p50, base.p50)}, p99 ${ratio(ours.p99, base.p99)}`,
  );
  return base;
}

async function overHttp(
  print: (line: string) => void,
  url: string,
  keys: { reader: string; writer: string },
  size: number,
  subject: MeasuredSubject,
  baseline: { p50: number; p99: number },
) {
  const path = (query: string) => `/v1/subjects/${subjectName(size)}/recall?query=${encodeURIComponent(query)}&topK=${TOP_K}`;
  const failed: string[] = [];
  const get = async (query: string) => {
    const response = await fetch(`${url}${path(query)}`, { headers: { authorization: `Bearer ${keys.reader}` } });
    const text = await response.text();
    if (!response.ok) failed.push(`${response.status} ${text.slice(0, 160)}`);
  };
  const cold: number[] = [];
  for (let round = 0; round < COLD_ROUNDS; round++) {
    const written = await fetch(`${url}/v1/subjects/${subjectName(size)}/memories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${keys.writer}`, 'content-type': 'application/json' },
      body: JSON.stringify(freshEntry(COLD_ROUNDS + round)),
    });
    if (!written.ok) throw new Error(`record answered ${written.status}: ${await written.text()}`);
    const started = performance.now();
    await get(subject.queries[round % subject.queries.length]!);
    cold.push(performance.now() - started);
  }
  cold.sort((x, y) => x - y);
  print(
    `  HTTP, cold (first query after a POSTed write; includes waiting for the projection, ${COLD_ROUNDS} rounds): median ${ms(percentile(cold, 50))}, max ${ms(cold.at(-1)!)}; ` +
      `non-2xx ${failed.length}${failed.length > 0 ? ` (first: ${failed[0]})` : ''}`,
  );
  const amount = Math.max(CONNECTIONS, Math.round(setting('MEMLEDGER_BENCH_RECALL_HTTP_REQUESTS', 400) / (size > 1_000 ? 2 : 1)));
  let n = 0;
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    amount,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({
          ...req,
          path: path(subject.queries[n++ % subject.queries.length]!),
          headers: { authorization: `Bearer ${keys.reader}` },
        }),
      },
    ],
  });
  print(
    `  HTTP, warm (c=${CONNECTIONS}, ${result.requests.total} requests, ${result.requests.average.toFixed(0)} req/s): p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ` +
      `errors ${result.errors}, non-2xx ${result.non2xx}; ratio to in-process plain BM25 p50 ${ratio(result.latency.p50, baseline.p50)}, p99 ${ratio(result.latency.p99, baseline.p99)}`,
  );
}

export const recallQueryBench: Bench = {
  name: 'recall-query',
  async run({ databaseUrl, print }) {
    print(`load average (1, 5, 15 min) at start: ${load()}`);
    const background = setting('MEMLEDGER_BENCH_BACKGROUND_VERSIONS', 250_000);
    const env = {
      MEMLEDGER_EVENTSTORE_URL: databaseUrl,
      MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'),
      MEMLEDGER_LOG_LEVEL: 'warn',
    };
    const subjects = new Map(SIZES.map((size) => [size, measuredSubject(size)] as const));
    const ledger = await openLedger({ env });
    const read = await openReadSide(ledger);
    const baselines = new Map<number, { p50: number; p99: number }>();
    try {
      const started = performance.now();
      const { measured, total } = await seed(ledger, read, subjects, background);
      print(
        `memory_versions: ${total.toLocaleString('en')} rows (${measured.toLocaleString('en')} of the measured subjects, imported through the ledger; ` +
          `MEMLEDGER_BENCH_BACKGROUND_VERSIONS=${background.toLocaleString('en')}), seeded in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      for (const [size, subject] of subjects) {
        print(`${size.toLocaleString('en')} memories, top ${TOP_K}, ${subject.queries.length} queries in turn (English, Chinese, ids)`);
        baselines.set(size, await inProcess(print, ledger, read, size, subject));
      }
    } finally {
      await read.close();
      await ledger.close();
    }
    const service = await startService({
      config: { ...readServiceConfig(env, { port: 0, host: '127.0.0.1' }), apiKeyCacheMs: 0 },
      env,
      logger: pino({ level: 'warn' }),
    });
    const store = new ApiKeyStore(databaseUrl, { poolSize: 1 });
    try {
      const keys = {
        reader: (await store.create({ tenant: TENANT, role: 'reader', now: new Date() })).key,
        // The user's channel: its cold-round writes are the user speaking (user_assertion), which the gate allows no other key.
        writer: (await store.create({ tenant: TENANT, role: 'writer', channel: 'user', now: new Date() })).key,
      };
      for (const [size, subject] of subjects) {
        print(`${size.toLocaleString('en')} memories over HTTP (${service.url}, the service in this process)`);
        await overHttp(print, service.url, keys, size, subject, baselines.get(size)!);
      }
    } finally {
      await store.close();
      await service.stop();
    }
    print(`load average (1, 5, 15 min) at end: ${load()}`);
  },
};
