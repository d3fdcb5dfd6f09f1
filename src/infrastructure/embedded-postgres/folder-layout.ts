// Where the embedded server keeps its things inside MEMLEDGER_DATA_DIR.
import { join, resolve } from 'node:path';

export interface FolderLayout {
  readonly dataDir: string;
  /** The PostgreSQL cluster, owned by the unprivileged OS user. */
  readonly clusterDir: string;
  /** Where initdb works before the finished cluster is renamed into place. */
  readonly clusterStagingDir: string;
  /** Port and role name of the server, chosen at first start. */
  readonly settingsFile: string;
  /** The role's generated password, mode 0600. */
  readonly passwordFile: string;
  /** Output of initdb and the postmaster. */
  readonly logFile: string;
  /** Exclusive lock around check-initialise-start and check-stop. */
  readonly lockFile: string;
  /** One file per process that uses the server. */
  readonly clientsDir: string;
  /** postmaster.pid, written by PostgreSQL itself. */
  readonly postmasterPidFile: string;
  /** The process that stops the server once it has had no client for the linger time. */
  readonly reaperFile: string;
}

export function folderLayout(dataDir: string): FolderLayout {
  const root = resolve(dataDir);
  const clusterDir = join(root, 'pg');
  return {
    dataDir: root,
    clusterDir,
    clusterStagingDir: join(root, 'pg.initdb'),
    settingsFile: join(root, 'server.json'),
    passwordFile: join(root, 'password'),
    logFile: join(root, 'postgres.log'),
    lockFile: join(root, 'lock'),
    clientsDir: join(root, 'clients'),
    postmasterPidFile: join(clusterDir, 'postmaster.pid'),
    reaperFile: join(root, 'reaper.json'),
  };
}
