// `memledger server status|stop`: the data folder's server as its operator
// sees it, and stopping it now instead of after the linger time.
import { existsSync, statSync } from 'node:fs';
import { liveClients } from './client-registry.js';
import { isInitialised } from './cluster.js';
import { EmbeddedServerError } from './errors.js';
import { takeFolderLock } from './folder-lock.js';
import { folderLayout } from './folder-layout.js';
import { runningPostmaster, stopPostmaster } from './postmaster.js';
import { isRunning } from './process-identity.js';
import { readReaper } from './reaper.js';

export interface EmbeddedServerStatus {
  readonly dataDir: string;
  /** initdb has run in the folder. */
  readonly initialised: boolean;
  readonly running: boolean;
  readonly pid?: number;
  readonly port?: number;
  /** Processes using the server now. */
  readonly clients: readonly number[];
  /** With no clients: when the reaper stops it (ISO 8601), as far as the folder tells. */
  readonly stopsAt?: string;
}

export function embeddedServerStatus(dataDir: string): EmbeddedServerStatus {
  const layout = folderLayout(dataDir);
  const postmaster = runningPostmaster(layout);
  const clients = liveClients(layout.clientsDir).map((client) => client.pid);
  const base = { dataDir: layout.dataDir, initialised: isInitialised(layout), clients };
  if (!postmaster) return { ...base, running: false };
  const reaper = readReaper(layout);
  let stopsAt: string | undefined;
  if (clients.length === 0 && reaper && isRunning(reaper)) {
    let idleSince = Date.now();
    try {
      idleSince = statSync(layout.clientsDir).mtimeMs;
    } catch {
      // no client ever registered: idle since now
    }
    stopsAt = new Date(idleSince + reaper.lingerMs).toISOString();
  }
  return { ...base, running: true, pid: postmaster.process.pid, port: postmaster.port, ...(stopsAt ? { stopsAt } : {}) };
}

/** Some process still uses the server: stopping it would cut that process off. */
export class EmbeddedServerInUse extends Error {
  override readonly name = 'EmbeddedServerInUse';
  readonly code = 'server_in_use';
  constructor(
    readonly dataDir: string,
    readonly clients: readonly number[],
  ) {
    super(`the embedded PostgreSQL of ${dataDir} is in use by process ${clients.join(', ')}; stop those first, or use --force`);
  }
}

/** Stops the folder's server now (fast shutdown). Without force, refuses while a process uses it. */
export async function stopEmbeddedServer(
  dataDir: string,
  options: { readonly force?: boolean } = {},
): Promise<{ readonly stopped: boolean }> {
  const layout = folderLayout(dataDir);
  if (!existsSync(layout.dataDir)) return { stopped: false };
  const lock = await takeFolderLock(layout.lockFile, 60_000);
  if (!lock) throw new EmbeddedServerError(`another process has held ${layout.lockFile} for over a minute`, layout.dataDir);
  try {
    const postmaster = runningPostmaster(layout);
    if (!postmaster) return { stopped: false };
    const clients = liveClients(layout.clientsDir).map((client) => client.pid);
    if (clients.length > 0 && !options.force) throw new EmbeddedServerInUse(layout.dataDir, clients);
    await stopPostmaster(layout, postmaster.process, 30_000);
    return { stopped: true };
  } finally {
    lock.release();
  }
}
