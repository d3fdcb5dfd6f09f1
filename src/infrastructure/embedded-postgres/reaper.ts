// The embedded server lingers after its last client, so that consecutive
// commands join it instead of starting it again. What stops it then is the
// reaper: one small detached process per data folder, started with the
// server, that watches the client registry and, once nobody has used the
// server for the linger time, stops it under the folder lock (so a process
// that registers meanwhile either came first and keeps it, or comes after and
// starts it again). It ends when the server has stopped, whoever stopped it.
// A reaper that dies is replaced by the next process that acquires the server.
// The linger time is the one of the last process that left (it rewrites the
// reaper's record), so a command run with a shorter one shortens the wait.
import { spawn } from 'node:child_process';
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { liveClients } from './client-registry.js';
import { takeFolderLock } from './folder-lock.js';
import type { FolderLayout } from './folder-layout.js';
import { runningPostmaster, stopPostmaster } from './postmaster.js';
import { currentProcess, identityOf, isRunning, type ProcessIdentity } from './process-identity.js';

export interface ReaperRecord extends ProcessIdentity {
  readonly lingerMs: number;
}

const STOP_TIMEOUT_MS = 30_000;

export function readReaper(layout: FolderLayout): ReaperRecord | null {
  try {
    const parsed = JSON.parse(readFileSync(layout.reaperFile, 'utf8')) as Partial<ReaperRecord>;
    if (typeof parsed.pid !== 'number' || typeof parsed.lingerMs !== 'number') return null;
    return { pid: parsed.pid, startTime: typeof parsed.startTime === 'string' ? parsed.startTime : null, lingerMs: parsed.lingerMs };
  } catch {
    return null;
  }
}

/** The reaper's entry point, run as `node [--import tsx] reaper-main.[jt]s <dataDir> <lingerMs>`. */
function reaperCommand(): string[] {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Running from the sources (tests, `npm run dev`): the reaper needs tsx too.
    return ['--import', import.meta.resolve('tsx'), fileURLToPath(new URL('./reaper-main.ts', here))];
  }
  return [fileURLToPath(new URL('./reaper-main.js', here))];
}

function writeReaper(layout: FolderLayout, record: ReaperRecord): void {
  const draft = `${layout.reaperFile}.${process.pid}`;
  writeFileSync(draft, JSON.stringify(record), { mode: 0o600 });
  renameSync(draft, layout.reaperFile);
}

/** Starts the folder's reaper unless one runs, and makes `lingerMs` its linger time. The caller holds the folder lock. */
export function ensureReaper(layout: FolderLayout, lingerMs: number): void {
  const reaper = readReaper(layout);
  if (reaper && isRunning(reaper)) {
    if (reaper.lingerMs !== lingerMs) writeReaper(layout, { ...reaper, lingerMs });
    return;
  }
  const child = spawn(process.execPath, [...reaperCommand(), layout.dataDir, String(lingerMs)], {
    detached: true,
    stdio: 'ignore',
    cwd: layout.dataDir,
  });
  child.on('error', () => undefined);
  child.unref();
  if (child.pid === undefined) return;
  writeReaper(layout, { ...identityOf(child.pid), lingerMs });
}

/** When the last client left: the registry folder changes with every (un)registration. */
function lastChange(layout: FolderLayout): number {
  try {
    return statSync(layout.clientsDir).mtimeMs;
  } catch {
    return 0;
  }
}

/** The reaper's loop: returns once the server is stopped (by it or anyone else). */
export async function reap(layout: FolderLayout, initialLingerMs: number): Promise<void> {
  let lastSeenInUse = Date.now();
  try {
    for (;;) {
      if (!runningPostmaster(layout)) return;
      const record = readReaper(layout);
      const lingerMs = record && record.pid === currentProcess.pid ? record.lingerMs : initialLingerMs;
      const pollMs = Math.max(50, Math.min(1000, Math.floor(lingerMs / 4)));
      if (liveClients(layout.clientsDir).length > 0) lastSeenInUse = Date.now();
      else if (Date.now() - Math.max(lastSeenInUse, lastChange(layout)) >= lingerMs && (await stopIfUnused(layout))) return;
      await sleep(pollMs);
    }
  } finally {
    const record = readReaper(layout);
    if (record && record.pid === currentProcess.pid) rmSync(layout.reaperFile, { force: true });
  }
}

async function stopIfUnused(layout: FolderLayout): Promise<boolean> {
  const lock = await takeFolderLock(layout.lockFile, 5_000);
  if (!lock) return false;
  try {
    if (liveClients(layout.clientsDir).length > 0) return false;
    const postmaster = runningPostmaster(layout);
    if (postmaster) await stopPostmaster(layout, postmaster.process, STOP_TIMEOUT_MS);
    return true;
  } finally {
    lock.release();
  }
}
