// Bringing the folder's server up: joining one that runs, or starting it on
// the port chosen at first start. Called under the folder lock.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Binaries } from './binaries.js';
import { readSettings, SERVER_ROLE, writeSettings } from './cluster.js';
import { EmbeddedServerError } from './errors.js';
import type { FolderLayout } from './folder-layout.js';
import { freePort, portIsFree, runningPostmaster, startPostmaster, type StartOutcome } from './postmaster.js';
import type { ServerAccount } from './server-account.js';
import { serverLogTail } from './server-log.js';
import { answers } from './server-probe.js';

export const APP_DATABASE = 'memledger';
export const START_TIMEOUT_MS = 60_000;

export interface Urls {
  /** The app's database, as the server's superuser role. */
  readonly url: string;
  /** The same role on the `postgres` database. */
  readonly adminUrl: string;
}

/** Over the server's Unix-domain socket when it listens on one (pg reads `<socketDir>/.s.PGSQL.<port>`), else TCP. */
export function urlsFor(password: string, port: number, socketDir?: string): Urls {
  const host = socketDir ? encodeURIComponent(socketDir) : '127.0.0.1';
  const base = `postgres://${SERVER_ROLE}:${encodeURIComponent(password)}@${host}:${port}`;
  return { url: `${base}/${APP_DATABASE}`, adminUrl: `${base}/postgres` };
}

/** A postmaster that is running but not answering is starting or stopping: wait for either. */
export async function answersOrDies(layout: FolderLayout, url: string): Promise<boolean> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (await answers(url)) return true;
    const postmaster = runningPostmaster(layout);
    if (!postmaster) return false;
    if (Date.now() >= deadline) {
      throw new EmbeddedServerError(
        `PostgreSQL (pid ${postmaster.process.pid}) runs in ${layout.dataDir} but did not accept connections within ${START_TIMEOUT_MS} ms`,
        layout.dataDir,
        serverLogTail(layout),
      );
    }
    await sleep(100);
  }
}

export async function startServer(
  layout: FolderLayout,
  account: ServerAccount,
  binaries: Binaries,
  password: string,
  durable: boolean,
): Promise<Urls> {
  let settings = readSettings(layout);
  let outcome: StartOutcome['kind'] = 'port_taken';
  for (let attempt = 0; attempt < 10; attempt += 1) {
    if (outcome === 'port_taken' && attempt >= 3) break;
    // The port chosen at first start is kept, unless something else took it meanwhile.
    const port = settings && (await portIsFree(settings.port)) ? settings.port : await freePort();
    if (!settings || settings.port !== port) {
      settings = { port, role: SERVER_ROLE };
      writeSettings(layout, settings);
    }
    const started = await startPostmaster(layout, account, binaries, {
      port,
      probeUrl: urlsFor(password, port).adminUrl,
      durable,
      timeoutMs: START_TIMEOUT_MS,
    });
    outcome = started.kind;
    if (started.kind === 'ready') return urlsFor(password, port, started.socketDir);
    if (outcome === 'port_taken') settings = null;
    else await sleep(250);
  }
  throw new EmbeddedServerError(
    outcome === 'port_taken'
      ? 'PostgreSQL could not bind a free port after 3 attempts'
      : 'processes of an earlier PostgreSQL still hold its shared memory',
    layout.dataDir,
    serverLogTail(layout),
  );
}
