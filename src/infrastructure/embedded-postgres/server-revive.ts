// Bringing back a folder's server that died under a process still using it
// (a kill -9 of the postmaster, an OOM kill): started again on the same port,
// so the process's pools, which keep their URL, reconnect by themselves.
// Crash recovery replays the WAL, so every acknowledged commit is there.
import { embeddedBinaries } from './binaries.js';
import { takeFolderLock } from './folder-lock.js';
import type { FolderLayout } from './folder-layout.js';
import { runningPostmaster, startPostmaster } from './postmaster.js';
import { ensureReaper } from './reaper.js';
import { serverAccount } from './server-account.js';
import { answersOrDies, START_TIMEOUT_MS, type Urls } from './server-start.js';

/**
 * running: it was up (or another process brought it back); restarted: this call did;
 * port_taken, shared_memory_in_use, busy: not now (something holds the port, the dead
 * server's children are still exiting, another process holds the folder lock): try again.
 */
export type ReviveOutcome = 'running' | 'restarted' | 'port_taken' | 'shared_memory_in_use' | 'busy';

export interface ReviveOptions {
  readonly durable: boolean;
  readonly lingerMs: number;
}

export async function reviveOnDisk(layout: FolderLayout, urls: Urls, options: ReviveOptions): Promise<ReviveOutcome> {
  const account = await serverAccount(layout.dataDir);
  const binaries = await embeddedBinaries(layout.dataDir);
  const lock = await takeFolderLock(layout.lockFile, 10_000);
  if (!lock) return 'busy';
  try {
    if (runningPostmaster(layout) && (await answersOrDies(layout, urls.adminUrl))) return 'running';
    const port = Number(new URL(urls.adminUrl).port);
    const outcome = await startPostmaster(layout, account, binaries, {
      port,
      probeUrl: urls.adminUrl,
      durable: options.durable,
      timeoutMs: START_TIMEOUT_MS,
    });
    if (outcome.kind !== 'ready') return outcome.kind;
    if (options.lingerMs > 0) ensureReaper(layout, options.lingerMs);
    return 'restarted';
  } finally {
    lock.release();
  }
}
