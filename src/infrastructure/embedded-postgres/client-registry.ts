// The processes using a data folder's server: one file per process, named by
// pid, holding its identity. Entries of processes that died without
// unregistering (SIGKILL, power loss) are recognised by identity and dropped.
// Callers hold the folder lock, so reading and pruning do not race.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { currentProcess, isRunning, type ProcessIdentity } from './process-identity.js';

export function registerClient(clientsDir: string): void {
  mkdirSync(clientsDir, { recursive: true, mode: 0o700 });
  writeFileSync(join(clientsDir, String(currentProcess.pid)), JSON.stringify(currentProcess), { mode: 0o600 });
}

export function unregisterClient(clientsDir: string): void {
  rmSync(join(clientsDir, String(currentProcess.pid)), { force: true });
}

function readEntry(file: string): ProcessIdentity | null {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; startTime?: unknown };
    if (typeof parsed.pid !== 'number') return null;
    return { pid: parsed.pid, startTime: typeof parsed.startTime === 'string' ? parsed.startTime : null };
  } catch {
    return null;
  }
}

/** Registered processes that are still running; stale entries are removed. */
export function liveClients(clientsDir: string): ProcessIdentity[] {
  let names: string[];
  try {
    names = readdirSync(clientsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const live: ProcessIdentity[] = [];
  for (const name of names) {
    const file = join(clientsDir, name);
    const entry = readEntry(file);
    if (entry && isRunning(entry)) live.push(entry);
    else rmSync(file, { force: true });
  }
  return live;
}
