// One process at a time on a data folder: the embedded server starts, works,
// and stops when the process lets go — by release(), by leaving the event
// loop empty, by process.exit(), or by a signal.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { chmod, mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/infrastructure/config.js';
import { acquireEmbeddedServer } from '../../src/infrastructure/embedded-postgres/index.js';
import { freshFolder, occurrences, postmastersOf, processIsRunning, serverLog, startServerUser, uidOf } from './fixtures/server-users.js';

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

describe('the embedded server of a data folder', () => {
  it('starts for a process, answers queries, stops on release, and keeps its data for the next process', async () => {
    const dataDir = await folder();
    const first = startServerUser(dataDir, 'write:kept', 'hold');
    const report = await first.report;
    expect(report.one).toBe(1);
    expect(report.notes).toEqual(['kept']);

    const [postmaster] = postmastersOf(dataDir);
    expect(postmastersOf(dataDir)).toHaveLength(1);
    expect(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]).toBe(String(postmaster));
    if (process.getuid?.() === 0) expect(uidOf(postmaster!)).not.toBe(0);

    first.letGo();
    const ending = await first.ended;
    expect(ending.code).toBe(0);
    // Server output goes to the folder's log, never to the process's streams.
    expect(ending.stdout.trim().split('\n')).toHaveLength(1);
    expect(ending.stderr).toBe('');
    expect(processIsRunning(postmaster!)).toBe(false);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(serverLog(dataDir).trimEnd().endsWith(SHUT_DOWN)).toBe(true);

    const second = startServerUser(dataDir, 'read', 'release');
    expect((await second.report).notes).toEqual(['kept']);
    expect((await second.ended).code).toBe(0);
    expect(postmastersOf(dataDir)).toEqual([]);
    const log = serverLog(dataDir);
    expect(occurrences(log, READY)).toBe(2);
    expect(occurrences(log, SHUT_DOWN)).toBe(2);
    expect(log).not.toContain('was not properly shut down');
  });

  it('keeps the password in a file only its owner can read, and the cluster owned by the server account', async () => {
    const dataDir = await folder();
    const user = startServerUser(dataDir, 'read', 'release');
    await user.report;
    expect((await user.ended).code).toBe(0);
    expect(statSync(join(dataDir, 'password')).mode & 0o777).toBe(0o600);
    const settings = JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { port: number };
    expect(Number.isInteger(settings.port)).toBe(true);
    if (process.getuid?.() === 0) expect(statSync(join(dataDir, 'pg')).uid).not.toBe(0);

    // The port chosen at first start is kept.
    const again = startServerUser(dataDir, 'read', 'release');
    await again.report;
    expect((await again.ended).code).toBe(0);
    expect(JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8'))).toEqual(settings);
    expect(serverLog(dataDir)).toContain(`port ${settings.port}`);
  });

  it.each([
    ['calls process.exit() without releasing', 'exit' as const],
    ['simply runs out of work without releasing', 'drain' as const],
  ])('stops the server when the last process %s', async (_, then) => {
    const dataDir = await folder();
    const user = startServerUser(dataDir, 'write:x', then);
    expect((await user.report).notes).toEqual(['x']);
    const ending = await user.ended;
    expect(ending.code).toBe(0);
    expect(postmastersOf(dataDir)).toEqual([]);
    expect(existsSync(join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    expect(occurrences(serverLog(dataDir), SHUT_DOWN)).toBe(1);
  });

  it.each(['SIGTERM', 'SIGINT'] as const)(
    'stops the server when the last process gets %s, and the process still dies of it',
    async (signal) => {
      const dataDir = await folder();
      const user = startServerUser(dataDir, 'write:x', 'hold');
      await user.report;
      const [postmaster] = postmastersOf(dataDir);
      expect(postmaster).toBeDefined();
      user.child.kill(signal);
      const ending = await user.ended;
      expect(ending.signal).toBe(signal);
      expect(processIsRunning(postmaster!)).toBe(false);
      expect(occurrences(serverLog(dataDir), SHUT_DOWN)).toBe(1);
    },
  );

  it('names a folder above the data folder that the server account cannot enter, and creates nothing', async () => {
    const closed = join(await folder(), 'closed');
    await mkdir(closed, { mode: 0o700 });
    await chmod(closed, 0o700);
    const dataDir = join(closed, 'ledger');
    const acquiring = acquireEmbeddedServer({ dataDir, durable: false });
    if (process.getuid?.() === 0) {
      // As root the server runs as an unprivileged account, which cannot pass a 0700 folder owned by root.
      const error = await acquiring.then(
        () => null,
        (caught: unknown) => caught,
      );
      // A configuration error (exit 2 / the field named), not a failure of the server.
      expect(error).toBeInstanceOf(ConfigError);
      expect(error).toMatchObject({ code: 'invalid_config', field: 'MEMLEDGER_DATA_DIR' });
      expect((error as Error).message).toContain(closed);
      expect(existsSync(dataDir)).toBe(false);
    } else {
      // Without root the server runs as we do, and the folder is ours.
      const server = await acquiring;
      await server.release();
      expect(existsSync(join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
    }
  });

  it('is reached through a socket in its cluster folder, owner only; a folder too deep for a socket path over TCP', async () => {
    const dataDir = await folder();
    const near = startServerUser(dataDir, 'write:near', 'hold');
    const report = await near.report;
    expect([report.host, report.overSocket]).toEqual([join(dataDir, 'pg'), true]);
    const socket = readdirSync(join(dataDir, 'pg')).find((name) => name.startsWith('.s.PGSQL.'));
    expect(socket).toBeDefined();
    expect(statSync(join(dataDir, 'pg', socket!)).mode & 0o777).toBe(0o700);
    near.letGo();
    expect((await near.ended).code).toBe(0);
    // The postmaster removes its socket as it stops: the next start makes it again.
    expect(readdirSync(join(dataDir, 'pg')).filter((name) => name.startsWith('.s.PGSQL.'))).toEqual([]);

    // sun_path holds 107 bytes: `<folder>/pg/.s.PGSQL.<port>` longer than that cannot be a socket.
    const parent = await folder();
    await chmod(parent, 0o711); // the server account (as root) passes through it
    const deep = join(parent, 'd'.repeat(100));
    const far = startServerUser(deep, 'write:far', 'release');
    const farReport = await far.report;
    expect([farReport.host, farReport.overSocket]).toEqual(['127.0.0.1', false]);
    expect((await far.ended).code).toBe(0);
  });
});
