// `memledger serve --workers 2` (issue 20, item 4) as real processes on a
// test database: two worker processes answer on one port, exactly one runs
// the background work, a write through one is read through the other, a
// killed worker is replaced while the other keeps serving, and SIGTERM to the
// primary drains both and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import { get } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { processIsRunning } from '../embedded-postgres/fixtures/server-users.js';
import { entry } from './service.js';

let db: TestDatabase;
let env: Record<string, string>;
const children: ChildProcess[] = [];
beforeAll(async () => {
  db = await createTestDatabase('serve_workers');
  env = { ...cliEnvironment(db.url), MEMLEDGER_CONSOLIDATION_WORKERS: '0' };
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await db?.drop();
});

/** /healthz on a fresh connection (the cluster hands connections, not requests, to workers): the pid that answered. */
function answeringPid(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = get(`${url}/healthz`, { agent: false, timeout: 10_000 }, (response) => {
      let body = '';
      response.on('data', (d) => (body += d));
      response.on('end', () => resolve((JSON.parse(body) as { pid: number }).pid));
    });
    request.on('timeout', () => request.destroy(new Error('no answer within 10 s')));
    request.on('error', reject);
  });
}

async function pidsAnswering(url: string, requests: number): Promise<Set<number>> {
  const pids = new Set<number>();
  for (let i = 0; i < requests; i++) pids.add(await answeringPid(url));
  return pids;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 180_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('memledger serve --workers 2', () => {
  it('serves one port from two processes with one background owner, replaces a dead worker, and drains on SIGTERM', async () => {
    const created = await runCli(['keys', 'create', '--tenant', 'acme', '--role', 'writer', '--channel', 'user'], env);
    expect(created.code, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { key: string }).key;
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

    const primary = spawn(process.execPath, [...CLI, 'serve', '--workers', '2', '--port', '0'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(primary);
    let output = '';
    primary.stdout.on('data', (d) => (output += d));
    primary.stderr.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code)));
    const url = await until(() => {
      if (primary.exitCode !== null) throw new Error(`serve exited: ${output}`);
      return Promise.resolve(/"workers":2,"msg":"memledger serving"/.test(output) ? /"url":"(http:[^"]+)"/.exec(output)?.[1] : undefined);
    }, 'two workers serving');
    const lines = () =>
      output
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as { msg: string; worker?: number; background?: boolean });
    // The workers log asynchronously: a worker's line may come after the primary's "serving".
    const owners = await until(
      () => {
        const found = lines().filter((line) => line.background !== undefined);
        return Promise.resolve(found.length >= 2 ? found : undefined);
      },
      'both workers say what they run',
      30_000,
    );
    expect(owners.map((line) => [line.worker, line.background]).sort()).toEqual([
      [1, true],
      [2, false],
    ]);

    const pids = await pidsAnswering(url, 20);
    expect(pids.size).toBe(2);
    expect(pids.has(primary.pid!)).toBe(false);

    const recorded = await fetch(`${url}/v1/subjects/u1/memories`, { method: 'POST', headers, body: JSON.stringify(entry('email')) });
    expect(recorded.status).toBe(201);
    const { memoryId } = (await recorded.json()) as { memoryId: string };
    for (let i = 0; i < 4; i++) {
      const recall = await fetch(`${url}/v1/subjects/u1/recall`, { headers: { ...headers, connection: 'close' } });
      expect(recall.status).toBe(200);
      expect(await recall.text()).toContain(memoryId);
    }

    const [killed, survivor] = [...pids];
    process.kill(killed!, 'SIGKILL');
    // The other worker keeps serving meanwhile (a connection handed to the dying one may fail).
    expect(await until(async () => ((await answeringPid(url)) === survivor ? true : undefined), 'the survivor answers', 30_000)).toBe(true);
    const replaced = await until(async () => {
      const now = await pidsAnswering(url, 10);
      return now.size === 2 && !now.has(killed!) ? now : undefined;
    }, 'a new worker in place of the killed one');
    expect(replaced.has(survivor!)).toBe(true);

    primary.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of replaced) expect(processIsRunning(pid)).toBe(false);
    expect(lines().filter((line) => line.msg === 'stopped')).toHaveLength(3);
  }, 300_000);
});
