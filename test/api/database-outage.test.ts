// `memledger serve` outlives its database (issue 12, item 3), as a real child
// process on the embedded default: a writer keeps recording while the
// postmaster is killed with SIGKILL, and its port is held for a while so the
// outage lasts. Meanwhile the process stays up, /healthz says the database is
// down, /readyz answers 503, and requests 503 problem+json (database_unavailable,
// Retry-After), never 500. Once the port is free, the service starts the
// embedded server again on it, its pools reconnect, and every write it
// acknowledged (201) is there.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, unconfiguredEnvironment } from '../support/cli.js';
import { postmastersOf } from '../embedded-postgres/fixtures/server-users.js';

const folders: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(probe: () => Promise<T | undefined>, what: string, ms = 120_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(100);
  }
}

/** Holds a port as something else would, dropping every connection: the server cannot come back while held. */
/**
 * Takes the dead server's port the moment it is free, so that the service cannot start the server
 * again until the test lets go: tried every few milliseconds, well inside the service's check interval
 * (MEMLEDGER_DATABASE_CHECK_MS below). Tried every 100 ms, the service's restart could take it first.
 */
async function holdPort(port: number): Promise<Server> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const server = await new Promise<Server | undefined>((resolve) => {
      const candidate = createServer((socket) => socket.destroy());
      candidate.once('error', () => resolve(undefined));
      candidate.listen({ host: '127.0.0.1', port }, () => resolve(candidate));
    });
    if (server) return server;
    if (Date.now() > deadline) throw new Error(`binding port ${port}: not within 10000 ms`);
    await sleep(5);
  }
}

describe('memledger serve when its database dies', () => {
  it('stays up, answers 503 while the database is gone, restarts the embedded server and keeps every acknowledged write', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'memledger-outage-'));
    folders.push(dataDir);
    const env = {
      ...unconfiguredEnvironment(dataDir),
      MEMLEDGER_EMBEDDED_LINGER_SECONDS: '0',
      MEMLEDGER_DATABASE_CHECK_MS: '1000',
    };
    const created = await runCli(['keys', 'create', '--tenant', 'acme', '--role', 'writer', '--channel', 'user'], env);
    expect(created.code, created.stderr).toBe(0);
    const key = (JSON.parse(created.stdout) as { key: string }).key;

    const child = spawn(process.execPath, [...CLI, 'serve', '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const url = await until(async () => {
      const match = /"url":"(http:[^"]+)","port":\d+,"msg":"memledger serving"/.exec(output);
      if (child.exitCode !== null) throw new Error(`serve exited: ${output}`);
      return match?.[1];
    }, 'serve is up');

    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const acknowledged: string[] = [];
    const refusals: Array<{ status: number; type: string; code: string; retryAfter: string | null }> = [];
    let writing = true;
    let n = 0;
    const writer = (async () => {
      while (writing) {
        n += 1;
        const response = await fetch(`${url}/v1/subjects/u1/memories`, {
          method: 'POST',
          headers,
          body: JSON.stringify({
            kind: 'semantic',
            key: `fact.n${n}`,
            value: { type: 'number', amount: n },
            source: { type: 'user_assertion' },
          }),
        });
        const body = (await response.json()) as { memoryId?: string; code?: string };
        if (response.status === 201) acknowledged.push(body.memoryId!);
        else
          refusals.push({
            status: response.status,
            type: response.headers.get('content-type') ?? '',
            code: body.code ?? '',
            retryAfter: response.headers.get('retry-after'),
          });
        await sleep(20);
      }
    })();
    await until(async () => (acknowledged.length >= 10 ? true : undefined), 'writes before the kill');

    const [postmaster] = postmastersOf(dataDir);
    expect(postmaster).toBeDefined();
    const port = Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
    process.kill(postmaster!, 'SIGKILL');
    const held = await holdPort(port);

    const down = await until(async () => {
      const ready = await fetch(`${url}/readyz`);
      const body = (await ready.json()) as { database: string };
      return ready.status === 503 && body.database === 'down' ? body : undefined;
    }, '/readyz says the database is down');
    expect(down.database).toBe('down');
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', database: 'down' });
    await until(async () => (refusals.length >= 3 ? true : undefined), 'writes refused during the outage');
    await sleep(1_000); // the outage lasts; the service keeps trying to bring the server back
    expect(child.exitCode).toBeNull();

    await new Promise<void>((resolve) => held.close(() => resolve()));
    await until(async () => ((await fetch(`${url}/readyz`)).status === 200 ? true : undefined), '/readyz 200 again');
    const before = acknowledged.length;
    await until(async () => (acknowledged.length >= before + 5 ? true : undefined), 'writes acknowledged after the restart');
    writing = false;
    await writer;

    const [revived] = postmastersOf(dataDir);
    expect(revived).toBeDefined();
    expect(revived).not.toBe(postmaster);
    expect(refusals.length).toBeGreaterThan(0);
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({ status: 503, type: expect.stringContaining('application/problem+json') as string });
    }
    expect(refusals.some((r) => r.code === 'database_unavailable' && r.retryAfter !== null)).toBe(true);

    const recall = await fetch(`${url}/v1/subjects/u1/recall`, { headers });
    expect(recall.status).toBe(200);
    const text = await recall.text();
    const missing = acknowledged.filter((id) => !text.includes(id));
    expect(missing).toEqual([]);

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(postmastersOf(dataDir)).toEqual([]);
  }, 300_000);
});
