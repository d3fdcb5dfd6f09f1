// The embedded server outlives its last client (issue 20, item 3), through
// the real CLI with nothing configured but the data folder: the first
// command says it runs initdb, the next one joins the server the first one
// left running, the server stops by itself once unused for the linger time
// (of the last command: a short one here), and `server stop` stops it at once
// (refusing while a process uses it).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, runCli, unconfiguredEnvironment } from '../support/cli.js';
import { freshFolder, occurrences, postmastersOf, serverLog } from './fixtures/server-users.js';

const READY = 'database system is ready to accept connections';
const SHUT_DOWN = 'database system is shut down';

const folders: string[] = [];
async function folder(): Promise<string> {
  const dir = await freshFolder();
  folders.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of folders) {
    await runCli(['server', 'stop', '--force'], unconfiguredEnvironment(dir));
    await rm(dir, { recursive: true, force: true });
  }
});

function lingering(dataDir: string, seconds: number): Record<string, string> {
  return { ...unconfiguredEnvironment(dataDir), MEMLEDGER_EMBEDDED_LINGER_SECONDS: String(seconds) };
}

function stderrLines(stderr: string): Array<Record<string, unknown>> {
  return stderr
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function until(condition: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('the lingering embedded server', () => {
  it('is created with a notice, outlives the command, is joined by the next one, and stops alone once unused', async () => {
    const dataDir = await folder();
    const env = lingering(dataDir, 600);

    const first = await runCli(['events', '--tenant', 't', '--subject', 's'], env);
    expect(first.code, first.stderr).toBe(0);
    const notices = stderrLines(first.stderr);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ notice: 'embedded_server' });
    expect(notices[0]!.message).toContain('initdb');
    const [postmaster] = postmastersOf(dataDir);
    expect(postmaster).toBeDefined();

    const second = await runCli(['events', '--tenant', 't', '--subject', 's'], env);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).toBe('');
    expect(postmastersOf(dataDir)).toEqual([postmaster]);
    expect(occurrences(serverLog(dataDir), READY)).toBe(1);

    const status = await runCli(['server', 'status'], env);
    expect(status.code, status.stderr).toBe(0);
    const reported = JSON.parse(status.stdout) as { running: boolean; pid: number; clients: number[]; stopsAt?: string };
    expect(reported).toMatchObject({ running: true, pid: postmaster, clients: [] });
    expect(Date.parse(reported.stopsAt ?? '')).toBeGreaterThan(Date.now());

    // The last command to leave sets the linger time: a second here.
    const last = await runCli(['events', '--tenant', 't', '--subject', 's'], lingering(dataDir, 1));
    expect(last.code, last.stderr).toBe(0);
    await until(() => postmastersOf(dataDir).length === 0, 'the server stopped after the linger time');
    expect(occurrences(serverLog(dataDir), SHUT_DOWN)).toBe(1);
    await until(() => !existsSync(join(dataDir, 'reaper.json')), 'the reaper ended');
    const after = await runCli(['server', 'status'], env);
    expect(JSON.parse(after.stdout)).toMatchObject({ running: false, initialised: true, clients: [] });
  });

  it('server stop refuses while a process uses the server (exit 3, naming it), then stops the lingering server at once', async () => {
    const dataDir = await folder();
    const env = lingering(dataDir, 600);
    const follower = spawn(process.execPath, [...CLI, 'projections', 'run', '--follow'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const followerEnded = new Promise<number | null>((resolve) => follower.once('exit', (code) => resolve(code)));
    const clients = join(dataDir, 'clients');
    await until(() => existsSync(clients) && readdirSync(clients).includes(String(follower.pid)), 'the follower uses the server', 240_000);

    const refused = await runCli(['server', 'stop'], env);
    expect(refused.code).toBe(3);
    const refusal = JSON.parse(refused.stderr) as { error: string; message: string };
    expect(refusal.error).toBe('server_in_use');
    expect(refusal.message).toContain(String(follower.pid));
    expect(postmastersOf(dataDir)).toHaveLength(1);

    follower.kill('SIGTERM');
    await followerEnded;
    expect(postmastersOf(dataDir)).toHaveLength(1);

    const stopped = await runCli(['server', 'stop'], env);
    expect(stopped.code, stopped.stderr).toBe(0);
    expect(JSON.parse(stopped.stdout)).toMatchObject({ stopped: true });
    expect(postmastersOf(dataDir)).toEqual([]);
    const again = await runCli(['server', 'stop'], env);
    expect(JSON.parse(again.stdout)).toMatchObject({ stopped: false });
  });
});
