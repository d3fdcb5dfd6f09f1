// Several processes on one data folder: one postmaster, shared by all; the
// last one out stops it; a killed process or a killed server leaves a folder
// the next process uses cleanly.
import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  freshFolder,
  occurrences,
  postmastersOf,
  processIsRunning,
  serverLog,
  startServerUser,
  type ServerUser,
} from './fixtures/server-users.js';

const folders: string[] = [];
async function folder(): Promise<string> {
  const dir = await freshFolder();
  folders.push(dir);
  return dir;
}
afterAll(async () => {
  for (const dir of folders) await rm(dir, { recursive: true, force: true });
});

const READY = 'database system is ready to accept connections';
const SHUT_DOWN = 'database system is shut down';
const INITDB = 'The files belonging to this database system';

async function endsCleanly(user: ServerUser): Promise<void> {
  const ending = await user.ended;
  expect(ending.code, ending.stderr).toBe(0);
}

describe('processes sharing a data folder', () => {
  it('four processes started at once on a fresh folder share one postmaster, and the last to leave stops it', async () => {
    const dataDir = await folder();
    const users = ['a', 'b', 'c', 'd'].map((value) => startServerUser(dataDir, `write:${value}`, 'hold'));
    const reports = await Promise.all(users.map((user) => user.report));

    expect(reports.map((report) => report.one)).toEqual([1, 1, 1, 1]);
    // The one that started it and the three that joined all reach it through its socket in the cluster folder.
    expect(reports.map((report) => [report.host, report.overSocket])).toEqual(reports.map(() => [join(dataDir, 'pg'), true]));
    expect(new Set(reports.map((report) => report.postmasterStartedAt)).size).toBe(1);
    const postmasters = postmastersOf(dataDir);
    expect(postmasters).toHaveLength(1);
    const log = serverLog(dataDir);
    expect(occurrences(log, INITDB)).toBe(1);
    expect(occurrences(log, READY)).toBe(1);

    // Three leave: the fourth still has its server.
    for (const user of users.slice(0, 3)) user.letGo();
    for (const user of users.slice(0, 3)) await endsCleanly(user);
    expect(postmastersOf(dataDir)).toEqual(postmasters);

    users[3]!.letGo();
    await endsCleanly(users[3]!);
    expect(processIsRunning(postmasters[0]!)).toBe(false);
    expect(postmastersOf(dataDir)).toEqual([]);
    expect(occurrences(serverLog(dataDir), READY)).toBe(1);
    expect(occurrences(serverLog(dataDir), SHUT_DOWN)).toBe(1);
    expect(readdirSync(join(dataDir, 'clients'))).toEqual([]);

    const reader = startServerUser(dataDir, 'read', 'release');
    expect((await reader.report).notes).toEqual(['a', 'b', 'c', 'd']);
    await endsCleanly(reader);
  });

  it('after a process holding the server is SIGKILLed, the next process reuses the server with its data, and stops it when done', async () => {
    const dataDir = await folder();
    const killed = startServerUser(dataDir, 'write:before', 'hold');
    const killedReport = await killed.report;
    const [postmaster] = postmastersOf(dataDir);
    killed.child.kill('SIGKILL');
    expect((await killed.ended).signal).toBe('SIGKILL');
    // Its registration is still on disk, but names a dead process.
    expect(readdirSync(join(dataDir, 'clients'))).toEqual([String(killedReport.pid)]);
    expect(processIsRunning(postmaster!)).toBe(true);

    const next = startServerUser(dataDir, 'write:after', 'release');
    const report = await next.report;
    expect(report.notes).toEqual(['after', 'before']);
    expect(report.postmasterStartedAt).toBe(killedReport.postmasterStartedAt);
    await endsCleanly(next);
    expect(processIsRunning(postmaster!)).toBe(false);
    expect(postmastersOf(dataDir)).toEqual([]);
    expect(readdirSync(join(dataDir, 'clients'))).toEqual([]);
  });

  it('after the postmaster itself is SIGKILLed, the next process starts a new one that recovers the committed data', async () => {
    const dataDir = await folder();
    const holder = startServerUser(dataDir, 'write:committed', 'hold', true);
    await holder.report;
    const [postmaster] = postmastersOf(dataDir);
    process.kill(postmaster!, 'SIGKILL');

    const next = startServerUser(dataDir, 'read', 'release', true);
    const report = await next.report;
    expect(report.notes).toEqual(['committed']);
    await endsCleanly(next);
    expect(serverLog(dataDir)).toContain('was not properly shut down');
    // The holder is still registered, so the restarted server keeps running for it...
    const [restarted] = postmastersOf(dataDir);
    expect(restarted).not.toBe(postmaster);
    // ...until it leaves.
    holder.letGo();
    await endsCleanly(holder);
    expect(processIsRunning(restarted!)).toBe(false);
  });

  it('takes over a lock file left by a process that died while holding it', async () => {
    const dataDir = await folder();
    const ready = startServerUser(dataDir, 'write:x', 'release');
    await ready.report;
    await endsCleanly(ready);
    const dead = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
    expect(processIsRunning(dead)).toBe(false);
    writeFileSync(join(dataDir, 'lock'), JSON.stringify({ pid: dead, startTime: null, nonce: 'left-behind' }));
    writeFileSync(join(dataDir, 'lock.break'), JSON.stringify({ pid: dead, startTime: null, nonce: 'left-behind' }));

    const next = startServerUser(dataDir, 'read', 'release');
    expect((await next.report).notes).toEqual(['x']);
    await endsCleanly(next);
    expect(readdirSync(dataDir).filter((name) => name.startsWith('lock'))).toEqual([]);
    expect(postmastersOf(dataDir)).toEqual([]);
  });
});
