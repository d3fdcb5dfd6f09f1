// `memledger serve` as a real child process with no configuration at all
// (a fresh MEMLEDGER_DATA_DIR): it starts the embedded PostgreSQL, answers
// /healthz and an authenticated write (key made by `memledger keys create`
// on the same embedded default), and on SIGTERM drains, stops the embedded
// server and exits 0 — leaving no postgres running.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { embeddedServerRunning } from '../../src/infrastructure/embedded-postgres/index.js';
import { CLI, runCli, unconfiguredEnvironment } from '../support/cli.js';
import { entry } from './service.js';

const folders: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

/** Resolves with the first log line that `match`es; rejects if the process exits first. */
function logLine(
  child: ChildProcess,
  match: (line: Record<string, unknown>) => boolean,
  output: { text: string },
): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString();
      output.text += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        try {
          const parsed = JSON.parse(line) as Record<string, unknown>;
          if (match(parsed)) {
            child.stdout!.off('data', onData);
            resolve(parsed);
            return;
          }
        } catch {
          // not a JSON log line
        }
      }
    };
    child.stdout!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before logging the line; output:\n${output.text}`)));
  });
}

describe('memledger serve (child process, embedded default)', () => {
  it('serves with nothing configured and shuts down gracefully on SIGTERM, leaving no postgres running', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'memledger-serve-'));
    folders.push(dataDir);
    // Without a linger time, so that the server stops with its last client.
    const env = { ...unconfiguredEnvironment(dataDir), MEMLEDGER_EMBEDDED_LINGER_SECONDS: '0' };

    const created = await runCli(['keys', 'create', '--tenant', 'acme', '--role', 'writer', '--channel', 'user'], env);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout).key as string;
    expect(embeddedServerRunning(dataDir)).toBe(false);

    const child = spawn(process.execPath, [...CLI, 'serve', '--port', '0'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const output = { text: '' };
    child.stderr!.on('data', (d) => (output.text += d.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );

    const serving = await logLine(child, (line) => line.msg === 'memledger serving', output);
    const url = serving.url as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(embeddedServerRunning(dataDir)).toBe(true);

    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });
    const recorded = await fetch(`${url}/v1/subjects/u1/memories`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(entry('email')),
    });
    expect(recorded.status).toBe(201);

    const stopped = logLine(child, (line) => line.msg === 'stopped', output);
    child.kill('SIGTERM');
    await stopped;
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(embeddedServerRunning(dataDir)).toBe(false);
  }, 240_000);

  it('refuses a bad option or setting with exit 2 and a JSON error naming it, starting nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'memledger-serve-bad-'));
    folders.push(dataDir);
    const port = await runCli(['serve', '--port', '99999'], unconfiguredEnvironment(dataDir));
    expect(port.code).toBe(2);
    expect(JSON.parse(port.stderr)).toMatchObject({ error: 'invalid_input', field: 'port' });
    const level = await runCli(['serve', '--port', '0'], { ...unconfiguredEnvironment(dataDir), MEMLEDGER_LOG_LEVEL: 'loud' });
    expect(level.code).toBe(2);
    expect(JSON.parse(level.stderr)).toMatchObject({ error: 'invalid_config', field: 'MEMLEDGER_LOG_LEVEL' });
    expect(embeddedServerRunning(dataDir)).toBe(false);
  }, 120_000);
});
