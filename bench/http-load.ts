// HTTP load, loopback only and bounded: `memledger serve` runs as a child
// process on the bench database (API, projector, consolidation worker, TTL
// sweeper, as deployed) and autocannon drives it from this process at
// concurrency 32: record for D seconds (MEMLEDGER_BENCH_HTTP_SECONDS,
// default 30); then recall without a query for D seconds on SUBJECTS
// subjects of 50 memories each; then recall with a query (top 20) for D
// seconds on QUERY_SUBJECTS subjects of 1,000 memories each. The recalled
// subjects are imported over HTTP first (bench/recall-query's customer
// history), each subject's index built by one recall, so the figures are at
// the issue's sizes whatever the record rate was. The consolidation worker
// stays on, as deployed, but each recall phase waits (bounded, the wait
// printed) until it has settled on the imported subjects — their recall's
// revision and source unchanged between polls and no summary switched
// meanwhile — so the phase measures recall, not the first summaries of the
// freshly imported subjects (each moves the subject's revision and makes
// the next recall open and index it anew). Prints requests/s, latency
// p50/p99, errors and non-2xx answers per phase, the service's CPU per
// request, and the projection lag (events, seconds) sampled from /metrics
// once a second during each phase.
//   MEMLEDGER_BENCH_HTTP_PHASES=record,recall,query  the phases to run (default all; the raw
//                                                    baseline and the HTTP floor (support/http-floor.ts)
//                                                    run with the record phase)
//   MEMLEDGER_BENCH_WARMUP_SECONDS=W                 each phase's requests sent for W seconds before it is measured
//                                                    (default 3; 0 = none), their figures printed apart: the
//                                                    service's pools open, its code compiles for those requests,
//                                                    and each record subject's first write makes its key
//   MEMLEDGER_SERVE_WORKERS=N                        `serve --workers N` (default 1); each worker's corpora are
//                                                    warmed before a recall phase (support/warm-workers.ts)
//   MEMLEDGER_BENCH_PER_SECOND=1                     each phase's answers and latency per second (support/per-second.ts)
//   MEMLEDGER_BENCH_PG_STATS=1                       each phase's statements per request, from
//                                                    pg_stat_statements (a server that loads it,
//                                                    MEMLEDGER_BENCH_DATABASE_URL a superuser's)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { ApiKeyStore } from '../src/infrastructure/api-keys/api-key-store.js';
import { measuredSubject } from './recall-query/subject.js';
import { warmWorkers } from './support/warm-workers.js';
import { httpFloor } from './support/http-floor.js';
import { perSecond } from './support/per-second.js';
import { readServiceConfig } from '../src/api/service/service-config.js';
import type { Bench } from './run.js';

const CONNECTIONS = 32;
const SUBJECTS = 64;
const QUERY_SUBJECTS = 4;
const QUERY_MEMORIES = 1_000;
const RECALL_MEMORIES = 50;
/** The machine's load (1, 5, 15 minutes): figures are only comparable at a like load. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const CLI = fileURLToPath(new URL('../bin/memledger.mjs', import.meta.url));

/** A whole number of seconds from the environment, or the fallback; anything else stops the bench naming the variable. */
function secondsFrom(variable: string, fallback: number, min: number, max: number): number {
  const n = Number(process.env[variable] ?? fallback);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`${variable} must be a whole number of seconds from ${min} to ${max}`);
  return n;
}

type Phase = 'record' | 'recall' | 'query';
const PHASES: readonly Phase[] = ['record', 'recall', 'query'];

/** MEMLEDGER_BENCH_HTTP_PHASES=record,recall,query (default all): the phases to run, e.g. one while working on it. */
function phasesToRun(): ReadonlySet<Phase> {
  const text = process.env.MEMLEDGER_BENCH_HTTP_PHASES;
  if (text === undefined || text.trim() === '') return new Set(PHASES);
  const named = text.split(',').map((p) => p.trim());
  const unknown = named.filter((p) => !(PHASES as readonly string[]).includes(p));
  if (unknown.length > 0) throw new Error(`MEMLEDGER_BENCH_HTTP_PHASES names ${unknown.join(', ')}: the phases are ${PHASES.join(', ')}`);
  return new Set(named as Phase[]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

async function waitHealthy(url: string, exited: () => boolean): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (exited()) throw new Error('memledger serve exited during startup');
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('memledger serve did not answer /healthz within 120 s');
}

interface LagSample {
  readonly events: number;
  readonly seconds: number;
}

/** Samples the memory projection's lag from /metrics every second until stopped. */
function sampleLag(url: string): { stop(): Promise<LagSample[]> } {
  const samples: LagSample[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      try {
        const text = await (await fetch(`${url}/metrics`)).text();
        const value = (name: string) => Number(new RegExp(`^${name}\\{projection="memory"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
        samples.push({ events: value('memledger_projection_lag_events'), seconds: value('memledger_projection_lag_seconds') });
      } catch {
        // a missed sample
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return samples;
    },
  };
}

function summarize(samples: readonly LagSample[]): string {
  const ok = samples.filter((s) => Number.isFinite(s.events) && Number.isFinite(s.seconds));
  if (ok.length === 0) return 'projection lag: no samples';
  const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
  const median = (xs: number[]) => sorted(xs)[Math.floor(xs.length / 2)]!;
  const max = (xs: number[]) => Math.max(...xs);
  const events = ok.map((s) => s.events);
  const seconds = ok.map((s) => s.seconds);
  return `projection lag (${ok.length} samples): events median ${median(events)}, max ${max(events)}; seconds median ${median(seconds).toFixed(2)}, max ${max(seconds).toFixed(2)}`;
}

const SETTLE_POLL_MS = 2_000;
const SETTLE_LIMIT_MS = 180_000;

/** The summaries switched so far, in /metrics' text. */
function switchedIn(text: string): number {
  const line = /^memledger_consolidation_outcomes_total\{[^}]*outcome="switched"[^}]*\} (\S+)$/m.exec(text);
  return Number(line?.[1] ?? 0);
}

/** The summaries switched so far, from /metrics. */
async function switchedSoFar(url: string): Promise<number> {
  return switchedIn(await (await fetch(`${url}/metrics`)).text());
}

/**
 * Waits (at most SETTLE_LIMIT_MS) until the consolidation worker has settled
 * on the query subjects: between two polls, each subject's recall kept its
 * revision and source, no summary switched anywhere, and no subject waits
 * for a summary the worker would make (recall's reason `no_alias` or
 * `behind_epoch`): a consolidation of 1,000 memories outlasts a poll
 * interval, and one that switched in the phase made it stall for seconds.
 */
async function consolidationSettled(
  url: string,
  reader: string,
  prefix: string,
  subjects: number,
): Promise<{ settled: boolean; ms: number; sources: string[]; switched: number }> {
  const started = Date.now();
  const firstSwitched = await switchedSoFar(url);
  const poll = async () =>
    Promise.all(
      Array.from({ length: subjects }, async (_, i) => {
        const answer = await fetch(`${url}/v1/subjects/${prefix}${i}/recall?query=orders&topK=1`, {
          headers: { authorization: `Bearer ${reader}` },
        });
        if (!answer.ok) throw new Error(`recall of ${prefix}${i} answered ${answer.status} while waiting for consolidation`);
        const body = (await answer.json()) as { revision: number | null; source: string; reason: string };
        return `${body.source}@${body.revision}@${body.reason}`;
      }),
    );
  let before = { states: await poll(), switched: firstSwitched };
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const now = { states: await poll(), switched: await switchedSoFar(url) };
    const ms = Date.now() - started;
    const sources = now.states.map((s) => s.split('@')[0]!);
    const awaited = now.states.some((state) => /@(no_alias|behind_epoch)$/.test(state));
    const same = !awaited && now.switched === before.switched && now.states.every((state, i) => state === before.states[i]);
    if (same || ms >= SETTLE_LIMIT_MS) return { settled: same, ms, sources, switched: now.switched - firstSwitched };
    before = now;
  }
}

/** Imports `entries` into `count` subjects `${prefix}0…` over HTTP, each recalled once with a query (its index built). */
async function importSubjects(
  print: (line: string) => void,
  url: string,
  importer: string,
  reader: string,
  prefix: string,
  count: number,
  entries: readonly unknown[],
): Promise<void> {
  const started = Date.now();
  for (let i = 0; i < count; i++) {
    const answer = await fetch(`${url}/v1/subjects/${prefix}${i}/memories:import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${importer}`, 'content-type': 'application/json' },
      body: JSON.stringify({ entries }),
    });
    if (!answer.ok) throw new Error(`import into ${prefix}${i} answered ${answer.status}: ${await answer.text()}`);
    const warm = await fetch(`${url}/v1/subjects/${prefix}${i}/recall?query=orders&topK=20`, {
      headers: { authorization: `Bearer ${reader}` },
    });
    if (!warm.ok) throw new Error(`the first recall of ${prefix}${i} answered ${warm.status}`);
  }
  print(
    `imported ${count} subjects of ${entries.length} memories and built their indexes in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

/**
 * Waits (bounded) until consolidation has settled on the subjects, and says how long it took. Then brings the
 * server's statistics up to date (ANALYZE), as autovacuum does within a minute of a bulk import: with the import's
 * rows unknown to the planner, a subject's 1,000 key rows read as one, and the recall's key lookup filtered them all
 * instead of looking up the 20 it serves. The phase measures the steady state, not that first minute.
 */
async function settle(
  print: (line: string) => void,
  url: string,
  databaseUrl: string,
  reader: string,
  prefix: string,
  count: number,
): Promise<void> {
  const settled = await consolidationSettled(url, reader, prefix, count);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('analyze');
  } finally {
    await client.end();
  }
  print(
    `consolidation ${settled.settled ? 'settled' : `not settled within ${SETTLE_LIMIT_MS / 1000} s`} on them after ${(settled.ms / 1000).toFixed(1)} s ` +
      `(recall sources ${[...new Set(settled.sources)].join(', ')}; ${settled.switched} summaries switched meanwhile), ` +
      `statistics analyzed; load average ${load()}`,
  );
}

/** The service's event loop delay (prom-client's default metrics: p99 or max since the process started), in ms. */
function eventLoopDelay(text: string, which: 'p99' | 'max'): string {
  const line = new RegExp(`^memledger_nodejs_eventloop_lag_${which}_seconds (\\S+)$`, 'm').exec(text);
  return line ? (Number(line[1]) * 1000).toFixed(0) : '?';
}

/** p50 and p99 of a Prometheus histogram (as bucket upper bounds) from the exposition text. */
function histogramQuantiles(text: string, name: string, labels: string, counted = 'appends'): string {
  const buckets = [...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)",${labels}\\} (\\d+)$`, 'gm'))].map((m) => ({
    le: m[1]!,
    count: Number(m[2]),
  }));
  const total = buckets.at(-1)?.count ?? 0;
  if (total === 0) return 'no samples';
  const at = (q: number) => buckets.find((b) => b.count >= q * total)?.le ?? '+Inf';
  return `${total} ${counted}, p50 <= ${at(0.5)} s, p99 <= ${at(0.99)} s`;
}

/** The baseline: single-row INSERT + COMMIT (autocommit) from CONNECTIONS clients on the same server for `seconds`. */
async function rawInserts(databaseUrl: string, seconds: number): Promise<{ perSecond: number; p99: number }> {
  const clients = await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  try {
    await clients[0]!.query(
      'create table if not exists bench_http_raw (n bigint not null, body jsonb not null, at timestamptz not null default now())',
    );
    const latencies: number[] = [];
    const end = Date.now() + seconds * 1000;
    let n = 0;
    await Promise.all(
      clients.map(async (client) => {
        while (Date.now() < end) {
          const started = performance.now();
          n++;
          await client.query({
            name: 'bench_http_raw',
            text: 'insert into bench_http_raw (n, body) values ($1, $2)',
            values: [n, JSON.stringify({ text: `status ${n}`, refs: [`tool://orders/${n}`] })],
          });
          latencies.push(performance.now() - started);
        }
      }),
    );
    latencies.sort((a, b) => a - b);
    return { perSecond: latencies.length / seconds, p99: latencies[Math.floor(latencies.length * 0.99)] ?? NaN };
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

/**
 * CPU seconds (user + system) used so far by each process `counted` picks
 * (by pid, parent pid and command name), from /proc (Linux): the service
 * (its process and, with `serve --workers N`, its worker processes), or
 * PostgreSQL's processes. Per request, the one figure a busy machine does
 * not skew much, as requests/s does. Undefined where /proc is not there.
 */
function cpuSeconds(counted: (pid: string, parent: string, command: string) => boolean): Map<string, number> | undefined {
  try {
    const used = new Map<string, number>();
    for (const id of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      try {
        // The command in parentheses, then fields from the state on: ppid is the 2nd, utime and stime the 12th and 13th.
        const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
        const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (counted(id, fields[1]!, command)) used.set(id, (Number(fields[11]) + Number(fields[12])) / 100);
      } catch {
        // a process that ended meanwhile
      }
    }
    return used;
  } catch {
    return undefined;
  }
}

/** What the processes alive at `after` used since `before` (a process that ended meanwhile is not counted: a floor). */
function usedBetween(before: Map<string, number> | undefined, after: Map<string, number> | undefined): number | undefined {
  if (!before || !after) return undefined;
  let total = 0;
  for (const [id, seconds] of after) total += seconds - (before.get(id) ?? 0);
  return total;
}

/**
 * How many processes started and ended between `before` and `after` (for PostgreSQL: connections opened and
 * closed, each a backend). What one that ended used is not counted: with many, the CPU figure is too low.
 */
function turnover(before: Map<string, number> | undefined, after: Map<string, number> | undefined): string {
  if (!before || !after) return 'no count of processes';
  const started = [...after.keys()].filter((id) => !before.has(id)).length;
  const ended = [...before.keys()].filter((id) => !after.has(id)).length;
  return `${started} started and ${ended} ended during it`;
}

const serviceProcesses = (pid: number | undefined) => (id: string, parent: string) => id === String(pid) || parent === String(pid);
/** Every PostgreSQL process on the machine (the bench's server is the busy one). */
const postgresProcesses = (_id: string, _parent: string, command: string) => command === 'postgres';

/**
 * MEMLEDGER_BENCH_PG_STATS=1 (a server with pg_stat_statements loaded, and a
 * superuser URL): the statements of each phase alone, per request, the most
 * frequent first — where a request's round trips go.
 */
async function statementsOf(databaseUrl: string): Promise<{ stop(requests: number): Promise<string[]> } | undefined> {
  if (!process.env.MEMLEDGER_BENCH_PG_STATS) return undefined;
  const client = new pg.Client({ connectionString: databaseUrl });
  client.on('error', () => undefined); // a dropped connection fails the query at the end, not the run
  await client.connect();
  await client.query('create extension if not exists pg_stat_statements');
  await client.query('select pg_stat_statements_reset()');
  return {
    async stop(requests) {
      try {
        // Planning is counted with pg_stat_statements.track_planning = on (else 0).
        const { rows } = await client.query<{ calls: string; ms: string; plan: string; query: string }>(
          `select calls, total_exec_time as ms, total_plan_time as plan, regexp_replace(query, '\\s+', ' ', 'g') as query from pg_stat_statements
            where dbid = (select oid from pg_database where datname = current_database()) order by calls desc limit 15`,
        );
        const all = rows.reduce((sum, r) => sum + Number(r.calls), 0);
        return [
          `statements per request (top 15: ${(all / requests).toFixed(2)}):`,
          ...rows.map(
            (r) =>
              `  ${(Number(r.calls) / requests).toFixed(2)} x ${(Number(r.ms) / Number(r.calls)).toFixed(3)} ms (plan ${(Number(r.plan) / Number(r.calls)).toFixed(3)} ms)  ${r.query.slice(0, 100)}`,
          ),
        ];
      } finally {
        await client.end();
      }
    },
  };
}

/** A recall by `reader`, its path made from the request's number (1, 2, …). */
function recallRequest(reader: string, path: (n: number) => string): autocannon.Request {
  let n = 0;
  return {
    method: 'GET',
    setupRequest: (req) => ({ ...req, path: path(++n), headers: { authorization: `Bearer ${reader}` } }),
  };
}

interface PhaseResult {
  readonly perSecond: number;
  readonly p99: number;
  /** Errors, timeouts and non-2xx answers. */
  readonly failed: number;
  /** CPU per request of the service, PostgreSQL and the load generator together, in ms (undefined: not measured). */
  readonly cpuMs?: number;
}

/**
 * Sends a phase's requests for MEMLEDGER_BENCH_WARMUP_SECONDS (default 3; 0 = none) before it is measured, the
 * figures printed apart: a service that has run a while has its pools open and its code compiled for these requests.
 */
async function warmUp(print: (line: string) => void, url: string, name: string, request: autocannon.Request, why: string) {
  const seconds = secondsFrom('MEMLEDGER_BENCH_WARMUP_SECONDS', 3, 0, 60);
  if (seconds === 0) return;
  const warm = await autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: [request] });
  print(
    `${name} warm-up (${seconds} s, not measured: ${why}): ` +
      `${warm.requests.average.toFixed(0)} req/s, latency p50 ${warm.latency.p50} ms, p99 ${warm.latency.p99} ms, ` +
      `${warm.errors + warm.timeouts + warm.non2xx} failed`,
  );
}

/** The record phase's n-th entry. */
const recordBody = (n: number) => ({
  kind: 'semantic',
  key: `order.o${n % 500}`,
  value: { type: 'text', text: `status ${n}` },
  content: `Order o${n % 500} changed status (${n}).`,
  source: { type: 'verified_tool_fact', refs: [`tool://orders/${n}`] },
});

/**
 * What a rate asks of this machine: every process of the run (the service,
 * PostgreSQL, the load generator) shares its cores, so a rate of R req/s
 * can only be served with at most cores / R of CPU per request in all; and
 * in a closed loop of CONNECTIONS clients the mean latency is CONNECTIONS / R
 * (Little's law), so a p99 of P ms needs more than CONNECTIONS / P req/s.
 */
function budgetLine(rate: number, p99Ms: number | undefined, result: PhaseResult): string {
  const cores = availableParallelism();
  const budget = (1000 * cores) / rate;
  const used =
    result.cpuMs === undefined
      ? 'not measured'
      : `${result.cpuMs.toFixed(2)} ms used, a ceiling of ${((1000 * cores) / result.cpuMs).toFixed(0)} req/s`;
  const tail =
    p99Ms === undefined
      ? ''
      : `; p99 <= ${p99Ms} ms at ${CONNECTIONS} connections needs more than ${((1000 * CONNECTIONS) / p99Ms).toFixed(0)} req/s`;
  return `  (${rate.toFixed(0)} req/s on ${cores} cores allows ${budget.toFixed(2)} ms of CPU per request in all: ${used}${tail})`;
}

/** The issue's targets (issue 20), met or not, in one line per phase run, with what each asks of this machine's CPU. */
function targets(
  print: (line: string) => void,
  record?: PhaseResult & { ratio: number; raw: number },
  recall?: PhaseResult,
  query?: PhaseResult,
): void {
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  if (record) {
    print(
      `target record: ${record.ratio.toFixed(3)}x of raw (>= 0.15x), p99 ${record.p99} ms (<= 150), ${record.failed} failed: ${mark(record.ratio >= 0.15 && record.p99 <= 150 && record.failed === 0)}`,
    );
    print(budgetLine(0.15 * record.raw, 150, record));
  }
  if (recall) {
    print(
      `target recall without a query: ${recall.perSecond.toFixed(0)} req/s (>= 400), ${recall.failed} failed: ${mark(recall.perSecond >= 400 && recall.failed === 0)}`,
    );
    print(budgetLine(400, undefined, recall));
  }
  if (query) {
    print(
      `target recall with a query: ${query.perSecond.toFixed(0)} req/s (>= 150), p99 ${query.p99} ms (<= 200), ${query.failed} failed: ${mark(query.perSecond >= 150 && query.p99 <= 200 && query.failed === 0)}`,
    );
    print(budgetLine(150, 200, query));
  }
}

async function phase(
  print: (line: string) => void,
  url: string,
  name: string,
  seconds: number,
  request: autocannon.Request,
  service: number | undefined,
  databaseUrl: string,
): Promise<PhaseResult> {
  const lag = sampleLag(url);
  const statements = await statementsOf(databaseUrl);
  const switchedBefore = await switchedSoFar(url);
  const before = { service: cpuSeconds(serviceProcesses(service)), postgres: cpuSeconds(postgresProcesses), load: process.cpuUsage() };
  let bySecond: (() => string[]) | undefined;
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections: CONNECTIONS, duration: seconds, requests: [request] }, (error, done) =>
      error ? reject(error) : resolve(done),
    );
    if (process.env.MEMLEDGER_BENCH_PER_SECOND === '1') bySecond = perSecond(instance);
  });
  for (const line of bySecond?.() ?? []) print(`${name}: ${line}`);
  const after = {
    service: cpuSeconds(serviceProcesses(service)),
    postgres: cpuSeconds(postgresProcesses),
    load: process.cpuUsage(before.load),
  };
  for (const line of (await statements?.stop(result.requests.total)) ?? []) print(`${name}: ${line}`);
  const samples = await lag.stop();
  const perRequest = (s: number) => `${((1000 * s) / result.requests.total).toFixed(2)} ms`;
  const served = usedBetween(before.service, after.service);
  const postgres = usedBetween(before.postgres, after.postgres);
  const loadSeconds = (after.load.user + after.load.system) / 1e6;
  const cpuMs =
    served !== undefined && postgres !== undefined && result.requests.total > 0
      ? (1000 * (served + postgres + loadSeconds)) / result.requests.total
      : undefined;
  if (served !== undefined && postgres !== undefined && result.requests.total > 0)
    print(
      `${name}: the service used ${served.toFixed(1)} s of CPU, ${perRequest(served)} per request (projector and workers included); ` +
        `PostgreSQL ${perRequest(postgres)} (its processes alive at the end; ${turnover(before.postgres, after.postgres)}), ` +
        `the load generator ${perRequest(loadSeconds)}`,
    );
  print(
    `${name}: ${result.requests.average.toFixed(0)} req/s (${result.requests.total} requests), latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; ` +
      `answers ${(result.throughput.total / Math.max(1, result.requests.total) / 1024).toFixed(1)} KB on average (headers included); ` +
      `errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}; load average ${load()}`,
  );
  print(`${name}: ${summarize(samples)}`);
  // Off-peak consolidation: while the service is busy a due subject waits (MEMLEDGER_CONSOLIDATION_DEFER_MS), so a
  // phase's consolidations may run after it; this says how many ran during it.
  // One scrape: each resets the event loop delay the service reports.
  const metrics = await (await fetch(`${url}/metrics`)).text();
  print(`${name}: summaries switched during it: ${switchedIn(metrics) - switchedBefore}`);
  print(
    `${name}: event store appends so far (subject streams): ${histogramQuantiles(metrics, 'memledger_event_store_append_seconds', 'stream="subject",outcome="ok"')}; ` +
      `recall records: ${histogramQuantiles(metrics, 'memledger_event_store_append_seconds', 'stream="recall",outcome="ok"')}; ` +
      `recalls as the service timed them: ${histogramQuantiles(metrics, 'memledger_http_request_duration_seconds', 'method="GET",route="/v1/subjects/:subject/recall",status="200"', 'recalls')}; ` +
      `event loop delay p99 ${eventLoopDelay(metrics, 'p99')} ms, max ${eventLoopDelay(metrics, 'max')} ms (one process's, since it started)`,
  );
  return {
    perSecond: result.requests.average,
    p99: result.latency.p99,
    failed: result.errors + result.timeouts + result.non2xx,
    ...(cpuMs !== undefined ? { cpuMs } : {}),
  };
}

export const httpLoadBench: Bench = {
  name: 'http-load',
  async run({ databaseUrl, print }) {
    const seconds = secondsFrom('MEMLEDGER_BENCH_HTTP_SECONDS', 30, 1, 600);
    const phases = phasesToRun();
    // As `serve` reads MEMLEDGER_SERVE_WORKERS (the child inherits this environment).
    const workers = readServiceConfig(process.env).workers;
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      ...process.env,
      MEMLEDGER_EVENTSTORE_URL: databaseUrl,
      MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'),
      MEMLEDGER_LOG_LEVEL: 'warn',
      NO_COLOR: '1',
    };
    // MEMLEDGER_BENCH_PROFILE=DIR writes a CPU profile of the service (node --cpu-prof) into DIR when it stops.
    const profile = process.env.MEMLEDGER_BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', process.env.MEMLEDGER_BENCH_PROFILE] : [];
    const child = spawn(process.execPath, [...profile, CLI, 'serve', '--port', String(port)], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let exited = false;
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => ((exited = true), resolve(code))));
    const keys = new ApiKeyStore(databaseUrl, { poolSize: 1 });
    try {
      await waitHealthy(url, () => exited);
      const writer = (await keys.create({ tenant: 'bench', role: 'writer', now: new Date() })).key;
      const reader = (await keys.create({ tenant: 'bench', role: 'reader', now: new Date() })).key;
      // The imported history holds the user's own words and reviewed facts: only a user-channel admin key may claim both.
      const importer = (await keys.create({ tenant: 'bench', role: 'admin', channel: 'user', now: new Date() })).key;
      print(`loopback ${url}, concurrency ${CONNECTIONS}, ${seconds} s per phase, ${SUBJECTS} subjects, ${workers} serve worker(s)`);
      let recordResult: (PhaseResult & { ratio: number; raw: number }) | undefined;
      let recallResult: PhaseResult | undefined;
      let queryResult: PhaseResult | undefined;
      if (phases.has('record')) {
        const raw = await rawInserts(databaseUrl, seconds);
        print(
          `raw single-row INSERT + COMMIT, ${CONNECTIONS} clients (pg): ${raw.perSecond.toFixed(0)} rows/s, p99 ${raw.p99.toFixed(1)} ms; load average ${load()}`,
        );

        const floor = await httpFloor(databaseUrl, seconds, CONNECTIONS, JSON.stringify(recordBody(0)));
        print(
          `HTTP floor (node:http, the body parsed, one INSERT + COMMIT per request, ${CONNECTIONS} connections): ${floor.perSecond.toFixed(0)} req/s, ` +
            `p99 ${floor.p99} ms, ${floor.failed} failed (${(floor.perSecond / raw.perSecond).toFixed(3)}x of raw); load average ${load()}`,
        );

        let n = 0;
        const records: autocannon.Request = {
          method: 'POST',
          setupRequest: (req) => {
            n++;
            return {
              ...req,
              path: `/v1/subjects/bench-s${n % SUBJECTS}/memories`,
              headers: { authorization: `Bearer ${writer}`, 'content-type': 'application/json' },
              body: JSON.stringify(recordBody(n)),
            };
          },
        };
        await warmUp(print, url, 'record', records, "pools open, code compiles, each subject's first write makes its key");
        const recorded = await phase(print, url, 'record', seconds, records, child.pid, databaseUrl);

        recordResult = { ...recorded, ratio: recorded.perSecond / raw.perSecond, raw: raw.perSecond };
        print(
          `record / raw insert: ${recordResult.ratio.toFixed(3)}x; record / HTTP floor: ${(recorded.perSecond / floor.perSecond).toFixed(3)}x`,
        );
      }

      // The issue's figure is at 50 memories per subject: imported, as the query phase's subjects are, so it does not
      // depend on how many records the record phase took (the same key recorded again supersedes, and the count grows
      // with the record rate).
      if (phases.has('recall')) {
        const plain = measuredSubject(RECALL_MEMORIES);
        await importSubjects(print, url, importer, reader, 'bench-r', SUBJECTS, plain.entries);
        await settle(print, url, databaseUrl, reader, 'bench-r', SUBJECTS);
        await warmWorkers(
          url,
          reader,
          Array.from({ length: SUBJECTS }, (_, i) => `/v1/subjects/bench-r${i}/recall?budget=2000`),
          workers,
        );
        const plainRecalls = recallRequest(reader, (n) => `/v1/subjects/bench-r${n % SUBJECTS}/recall?budget=2000`);
        const plainName = `recall without a query (${RECALL_MEMORIES} memories per subject)`;
        await warmUp(print, url, plainName, plainRecalls, 'code compiles for these requests');
        recallResult = await phase(print, url, plainName, seconds, plainRecalls, child.pid, databaseUrl);
      }

      if (phases.has('query')) {
        const measured = measuredSubject(QUERY_MEMORIES);
        await importSubjects(print, url, importer, reader, 'bench-q', QUERY_SUBJECTS, measured.entries);
        await settle(print, url, databaseUrl, reader, 'bench-q', QUERY_SUBJECTS);
        const warmed = Date.now();
        await warmWorkers(
          url,
          reader,
          Array.from({ length: QUERY_SUBJECTS }, (_, i) => `/v1/subjects/bench-q${i}/recall?query=orders&topK=20`),
          workers,
        );
        if (workers > 1) print(`each of ${workers} workers warmed on the subjects in ${((Date.now() - warmed) / 1000).toFixed(1)} s`);
        const queryRecalls = recallRequest(reader, (n) => {
          const query = encodeURIComponent(measured.queries[n % measured.queries.length]!);
          return `/v1/subjects/bench-q${n % QUERY_SUBJECTS}/recall?query=${query}&topK=20&budget=2000`;
        });
        const queryName = `recall with a query (${QUERY_MEMORIES} memories per subject, top 20)`;
        await warmUp(print, url, queryName, queryRecalls, "code compiles for the questions' terms");
        queryResult = await phase(print, url, queryName, seconds, queryRecalls, child.pid, databaseUrl);
      }
      targets(print, recordResult, recallResult, queryResult);
    } finally {
      await keys.close();
      child.kill('SIGTERM');
      const code = await exit;
      if (code !== 0) print(`memledger serve exited with ${code}`);
    }
  },
};
