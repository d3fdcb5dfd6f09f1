// The embedded PostgreSQL server of a data folder, shared by every process
// that uses the folder.
//
// Concurrency: the check-initialise-start section and the check-stop section
// run under the folder's exclusive lock file, so of several processes starting
// at once exactly one runs initdb and starts the postmaster while the others
// wait, then find it running (postmaster.pid names a live postmaster of this
// cluster, and it answers) and connect to it.
//
// Lifetime: each process registers in <dataDir>/clients while it uses the
// server; release() (or the exit hooks) unregisters it. With a linger time
// (the CLI's default), the server outlives its last client by that long, so
// the next command joins it instead of starting it again; the folder's reaper
// process (reaper.ts) stops it then. With none, the process that leaves
// nobody behind stops the server (fast shutdown) and waits for it to exit. A
// process killed with SIGKILL leaves a registration that is ignored because
// its process is gone.
import { mkdirSync } from 'node:fs';
import { embeddedBinaries } from './binaries.js';
import { liveClients, registerClient, unregisterClient } from './client-registry.js';
import { initialiseCluster, isInitialised, readPassword } from './cluster.js';
import { EmbeddedServerError } from './errors.js';
import { installExitHooks, uninstallExitHooks } from './exit-hooks.js';
import { releaseHeldLocksSync, takeFolderLock, takeFolderLockSync, type HeldLock } from './folder-lock.js';
import { folderLayout, type FolderLayout } from './folder-layout.js';
import { runningPostmaster, stopPostmaster, stopPostmasterSync } from './postmaster.js';
import { isRunning } from './process-identity.js';
import { ensureReaper } from './reaper.js';
import { ensureAncestorsReachable, openDataDirForTraversal, serverAccount } from './server-account.js';
import { serverLogTail } from './server-log.js';
import { ensureDatabase } from './server-probe.js';
import { reviveOnDisk, type ReviveOutcome } from './server-revive.js';
import { answersOrDies, APP_DATABASE, startServer, urlsFor, type Urls } from './server-start.js';

export { APP_DATABASE } from './server-start.js';

export interface EmbeddedServerOptions {
  readonly dataDir: string;
  /** false skips fsync (initdb and server): for throwaway test folders only. Applies when this call starts the server. */
  readonly durable?: boolean;
  /** How long to wait for another process that holds the folder lock. */
  readonly lockTimeoutMs?: number;
  /** How long the server outlives its last client (default 0: the last client stops it). */
  readonly lingerMs?: number;
  /** Told what takes a while before it starts (initdb on a fresh folder). */
  readonly onNotice?: (message: string) => void;
}

export interface EmbeddedServer {
  /** The app's database, as the server's superuser role. */
  readonly url: string;
  /** The same role on the `postgres` database, for creating databases. */
  readonly adminUrl: string;
  readonly dataDir: string;
  /** Stops using the server; the last process to release stops it. Idempotent. */
  release(): Promise<void>;
  /** Starts the server again, on its port, if it died while this process uses it. */
  revive(): Promise<ReviveOutcome>;
}

interface Holding {
  count: number;
  readonly urls: Urls;
  readonly lingerMs: number;
}

const STOP_TIMEOUT_MS = 30_000;
const DEFAULT_LOCK_TIMEOUT_MS = 180_000;

const holdings = new Map<string, Holding>();
/** Folders this process may be registered in (with their linger time), including acquisitions still under way. */
const touched = new Map<string, number>();
/** One operation per folder at a time within this process. */
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(dataDir: string, operation: () => Promise<T>): Promise<T> {
  const previous = queues.get(dataDir) ?? Promise.resolve();
  const next = previous.then(operation, operation);
  queues.set(
    dataDir,
    next.catch(() => undefined),
  );
  return next;
}

async function lockFolder(layout: FolderLayout, timeoutMs: number): Promise<HeldLock> {
  const lock = await takeFolderLock(layout.lockFile, timeoutMs);
  if (!lock) {
    throw new EmbeddedServerError(
      `another process has held ${layout.lockFile} for over ${timeoutMs} ms; if no memledger process is running, delete that file`,
      layout.dataDir,
    );
  }
  return lock;
}

async function acquireOnDisk(layout: FolderLayout, options: EmbeddedServerOptions): Promise<Urls> {
  const account = await serverAccount(layout.dataDir);
  ensureAncestorsReachable(layout.dataDir, account);
  mkdirSync(layout.dataDir, { recursive: true, mode: 0o711 });
  openDataDirForTraversal(layout.dataDir, account);
  const binaries = await embeddedBinaries(layout.dataDir);
  const durable = options.durable ?? true;
  const lingerMs = options.lingerMs ?? 0;
  const lock = await lockFolder(layout, options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS);
  let startedHere = false;
  try {
    if (!isInitialised(layout)) {
      options.onNotice?.(`first use of ${layout.dataDir}: creating the embedded PostgreSQL cluster (initdb), this takes a few seconds`);
    }
    await initialiseCluster(layout, account, binaries, { durable });
    const password = readPassword(layout);
    const running = runningPostmaster(layout);
    let urls = running ? urlsFor(password, running.port, running.socketDir) : null;
    // Joining a server that says it is ready costs no connection: the caller's own first query tells.
    if (!urls || (!running?.ready && !(await answersOrDies(layout, urls.adminUrl)))) {
      urls = await startServer(layout, account, binaries, password, durable);
      startedHere = true;
    }
    // Created under this lock right after the server first started: a server we join has it.
    if (startedHere) await ensureDatabase(urls.adminUrl, APP_DATABASE);
    touched.set(layout.dataDir, lingerMs);
    registerClient(layout.clientsDir);
    if (lingerMs > 0) ensureReaper(layout, lingerMs);
    return urls;
  } catch (error) {
    const postmaster = startedHere ? runningPostmaster(layout) : null;
    if (postmaster && liveClients(layout.clientsDir).length === 0) {
      await stopPostmaster(layout, postmaster.process, STOP_TIMEOUT_MS).catch(() => undefined);
    }
    if (error instanceof EmbeddedServerError) throw error;
    throw new EmbeddedServerError(
      `could not start the embedded PostgreSQL in ${layout.dataDir}: ${(error as Error).message}`,
      layout.dataDir,
      serverLogTail(layout),
      { cause: error },
    );
  } finally {
    lock.release();
  }
}

async function releaseOnDisk(layout: FolderLayout, lockTimeoutMs: number, lingerMs: number): Promise<void> {
  const lock = await lockFolder(layout, lockTimeoutMs);
  try {
    unregisterClient(layout.clientsDir);
    touched.delete(layout.dataDir);
    if (liveClients(layout.clientsDir).length > 0) return;
    // The reaper stops it later (one is started again should it have died).
    if (lingerMs > 0 && runningPostmaster(layout)) return ensureReaper(layout, lingerMs);
    const postmaster = runningPostmaster(layout);
    if (postmaster) await stopPostmaster(layout, postmaster.process, STOP_TIMEOUT_MS);
  } finally {
    lock.release();
  }
}

function releaseAllSync(): void {
  releaseHeldLocksSync();
  for (const [dataDir, lingerMs] of touched) {
    const layout = folderLayout(dataDir);
    try {
      unregisterClient(layout.clientsDir);
      if (lingerMs > 0) continue; // the reaper started with the server stops it
      const lock = takeFolderLockSync(layout.lockFile, 5_000);
      if (!lock) continue;
      try {
        const postmaster = liveClients(layout.clientsDir).length === 0 ? runningPostmaster(layout) : null;
        if (postmaster) stopPostmasterSync(postmaster.process, 10_000);
      } finally {
        lock.release();
      }
    } catch {
      // Exiting anyway: a server left running is reused by the next process.
    }
  }
  touched.clear();
  holdings.clear();
}

async function releaseAll(): Promise<void> {
  await Promise.all(
    [...holdings.keys()].map((dataDir) =>
      serialized(dataDir, async () => {
        const holding = holdings.get(dataDir);
        if (!holding) return;
        holdings.delete(dataDir);
        await releaseOnDisk(folderLayout(dataDir), DEFAULT_LOCK_TIMEOUT_MS, holding.lingerMs).catch(() => undefined);
      }),
    ),
  );
  if (holdings.size === 0) uninstallExitHooks();
}

/**
 * Connects to the data folder's server, initialising the cluster and starting
 * the server first when needed. Within one process, acquisitions of the same
 * folder share one registration.
 */
export async function acquireEmbeddedServer(options: EmbeddedServerOptions): Promise<EmbeddedServer> {
  const layout = folderLayout(options.dataDir);
  const lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  const urls = await serialized(layout.dataDir, async () => {
    const holding = holdings.get(layout.dataDir);
    if (holding) {
      holding.count += 1;
      return holding.urls;
    }
    installExitHooks({ releaseAll, releaseAllSync });
    try {
      const acquired = await acquireOnDisk(layout, options);
      holdings.set(layout.dataDir, { count: 1, urls: acquired, lingerMs: options.lingerMs ?? 0 });
      return acquired;
    } catch (error) {
      if (holdings.size === 0) uninstallExitHooks();
      throw error;
    }
  });
  let released = false;
  return {
    ...urls,
    dataDir: layout.dataDir,
    revive: () =>
      serialized(layout.dataDir, () => reviveOnDisk(layout, urls, { durable: options.durable ?? true, lingerMs: options.lingerMs ?? 0 })),
    release: () =>
      serialized(layout.dataDir, async () => {
        if (released) return;
        released = true;
        const holding = holdings.get(layout.dataDir);
        if (!holding) return;
        holding.count -= 1;
        if (holding.count > 0) return;
        holdings.delete(layout.dataDir);
        try {
          await releaseOnDisk(layout, lockTimeoutMs, holding.lingerMs);
        } finally {
          if (holdings.size === 0) uninstallExitHooks();
        }
      }),
  };
}

/** For diagnostics and tests: whether a postmaster of this folder is running now. */
export function embeddedServerRunning(dataDir: string): boolean {
  const postmaster = runningPostmaster(folderLayout(dataDir));
  return postmaster !== null && isRunning(postmaster.process);
}
