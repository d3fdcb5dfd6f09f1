// A one-shot CLI `record` as a user runs it (bin/memledger.mjs on the build,
// nothing configured but the data folder) against a running embedded server:
// the median wall time of 10 (goal <= 0.6 s), next to baselines measured in the
// same run on the same server: `node -e ''` (process start-up) and a raw
// single-row INSERT from a fresh node process (start-up + pg connect + INSERT
// + COMMIT). Also, once each: the first command on a fresh folder (initdb and
// server start), a command that starts the stopped server of an initialised
// folder, and `record` run from the sources through tsx (what the build saves).
// Runs in a data folder of its own (durable, as deployed), not the bench database.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readPassword, readSettings } from '../src/infrastructure/embedded-postgres/cluster.js';
import { folderLayout } from '../src/infrastructure/embedded-postgres/index.js';
import { urlsFor } from '../src/infrastructure/embedded-postgres/server-start.js';
import type { Bench } from './run.js';

const run = promisify(execFile);
const BUILT_CLI = fileURLToPath(new URL('../bin/memledger.mjs', import.meta.url));
const SOURCE_CLI = ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('../src/cli/main.ts', import.meta.url))];
const SAMPLES = 10;
const GOAL_SECONDS = 0.6;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

async function wallSeconds(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  await run(process.execPath, args, { env, maxBuffer: 16 * 1024 * 1024 });
  return (performance.now() - started) / 1000;
}

async function medianOf(samples: number, args: (i: number) => readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < samples; i++) times.push(await wallSeconds(args(i), env));
  return median(times);
}

const entry = (i: number) =>
  JSON.stringify({ kind: 'semantic', key: `bench.k${i}`, value: { type: 'number', amount: i }, source: { type: 'user_assertion' } });
const record = (cli: readonly string[], i: number) => [...cli, 'record', '--tenant', 'bench', '--subject', 'cli', '--entry', entry(i)];

export const cliLatencyBench: Bench = {
  name: 'cli-latency',
  async run({ print }) {
    // The data folder itself (memledger opens it for the server's OS user; not a closed folder above it).
    const dataDir = await mkdtemp(join(tmpdir(), 'memledger-bench-cli-'));
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('MEMLEDGER_'))),
      MEMLEDGER_DATA_DIR: dataDir,
      MEMLEDGER_EMBEDDED_LINGER_SECONDS: '600',
    };
    try {
      const fresh = await wallSeconds(record([BUILT_CLI], 0), env);
      await run(process.execPath, [BUILT_CLI, 'server', 'stop'], { env });
      const cold = await wallSeconds(record([BUILT_CLI], 1), env);

      const layout = folderLayout(dataDir);
      const settings = readSettings(layout);
      if (!settings) throw new Error(`no server settings in ${dataDir}`);
      const { url } = urlsFor(readPassword(layout), settings.port);
      const insert = [
        '--input-type=module',
        '-e',
        `import pg from ${JSON.stringify(import.meta.resolve('pg'))};` +
          `const c = new pg.Client({ connectionString: process.env.BENCH_URL }); await c.connect();` +
          `await c.query('CREATE TABLE IF NOT EXISTS bench_raw (id bigserial PRIMARY KEY, body jsonb NOT NULL)');` +
          `await c.query('INSERT INTO bench_raw (body) VALUES ($1)', [process.env.BENCH_BODY]); await c.end();`,
      ];

      const nodeStart = await medianOf(SAMPLES, () => ['-e', ''], env);
      const rawInsert = await medianOf(SAMPLES, () => insert, { ...env, BENCH_URL: url, BENCH_BODY: entry(0) });
      const built = await medianOf(SAMPLES, (i) => record([BUILT_CLI], 100 + i), env);
      const sources = await medianOf(3, (i) => record(SOURCE_CLI, 200 + i), env);

      print(`baseline node -e '' start-up       median of ${SAMPLES}: ${nodeStart.toFixed(3)} s`);
      print(`baseline raw INSERT, fresh process  median of ${SAMPLES}: ${rawInsert.toFixed(3)} s`);
      print(
        `record, built CLI, running server   median of ${SAMPLES}: ${built.toFixed(3)} s  (goal <= ${GOAL_SECONDS} s: ${built <= GOAL_SECONDS ? 'met' : 'NOT met'}; ${(built / rawInsert).toFixed(2)}x the raw INSERT, ${(built / nodeStart).toFixed(1)}x node start-up)`,
      );
      print(`record, sources through tsx         median of 3: ${sources.toFixed(3)} s  (${(sources / built).toFixed(1)}x the build)`);
      print(`first record on a fresh folder (initdb + start): ${fresh.toFixed(3)} s`);
      print(`record that starts the stopped server:           ${cold.toFixed(3)} s`);
    } finally {
      await run(process.execPath, [BUILT_CLI, 'server', 'stop', '--force'], { env }).catch(() => undefined);
      await rm(dataDir, { recursive: true, force: true });
    }
  },
};
