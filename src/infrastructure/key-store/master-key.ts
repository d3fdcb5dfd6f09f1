// The master key wraps every subject secret in the key store, so the database
// (its tables, WAL, dumps and backups) never holds a usable key by itself.
//
// Where it comes from, first match wins:
// 1. MEMLEDGER_MASTER_KEY: base64 of 32 bytes (e.g. `openssl rand -base64 32`),
//    for deployments that keep secrets outside the data folder.
// 2. The file <MEMLEDGER_DATA_DIR>/master.key (default ./.memledger/master.key):
//    base64 of 32 bytes, mode 0600, generated at first use. It sits beside the
//    embedded database, so whoever copies the whole data folder gets both; set
//    MEMLEDGER_MASTER_KEY (or move the file's contents there) to separate them.
// MEMLEDGER_MASTER_KEY_PREVIOUS (comma-separated base64 keys) lists retired
// master keys that may still unwrap rows during a rotation.
import { createHmac, randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { KEY_BYTES } from '../cipher/key-material.js';
import { MasterKeyFileExposed, MasterKeyInvalid } from './errors.js';

export interface MasterKey {
  /** A fingerprint stored beside each wrapped row: names the key, reveals nothing of it. */
  readonly id: string;
  readonly bytes: Buffer;
}

export interface MasterKeyring {
  /** Wraps new rows and unwraps its own. */
  readonly current: MasterKey;
  /** Retired keys that may still unwrap rows until they are rewrapped. */
  readonly previous: readonly MasterKey[];
}

export type MasterKeySource =
  | { readonly kind: 'environment'; readonly variable: 'MEMLEDGER_MASTER_KEY' }
  | { readonly kind: 'file'; readonly path: string; readonly created: boolean };

export const MASTER_KEY_VARIABLE = 'MEMLEDGER_MASTER_KEY';
export const PREVIOUS_MASTER_KEYS_VARIABLE = 'MEMLEDGER_MASTER_KEY_PREVIOUS';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function masterKey(bytes: Buffer): MasterKey {
  if (bytes.length !== KEY_BYTES) throw new MasterKeyInvalid('bytes', `must be ${KEY_BYTES} bytes, got ${bytes.length}`);
  const id = `master_${createHmac('sha256', bytes).update('memledger/master-key-id/v1').digest('hex').slice(0, 16)}`;
  return { id, bytes: Buffer.from(bytes) };
}

export function parseMasterKey(text: string, source: string): MasterKey {
  const trimmed = text.trim();
  if (!BASE64.test(trimmed) || trimmed === '') throw new MasterKeyInvalid(source, 'is not base64');
  const bytes = Buffer.from(trimmed, 'base64');
  if (bytes.length !== KEY_BYTES) throw new MasterKeyInvalid(source, `must decode to ${KEY_BYTES} bytes, got ${bytes.length}`);
  return masterKey(bytes);
}

export function masterKeyFilePath(dataDir: string): string {
  return join(resolve(dataDir), 'master.key');
}

export interface LoadMasterKeyOptions {
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Overrides MEMLEDGER_DATA_DIR. */
  readonly dataDir?: string;
}

export async function loadMasterKeyring(options: LoadMasterKeyOptions = {}): Promise<{ keyring: MasterKeyring; source: MasterKeySource }> {
  const env = options.env ?? process.env;
  const previous = (env[PREVIOUS_MASTER_KEYS_VARIABLE] ?? '')
    .split(',')
    .filter((part) => part.trim() !== '')
    .map((part, i) => parseMasterKey(part, `${PREVIOUS_MASTER_KEYS_VARIABLE}[${i}]`));
  const fromEnv = env[MASTER_KEY_VARIABLE];
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    return {
      keyring: { current: parseMasterKey(fromEnv, MASTER_KEY_VARIABLE), previous },
      source: { kind: 'environment', variable: MASTER_KEY_VARIABLE },
    };
  }
  const path = masterKeyFilePath(options.dataDir ?? env.MEMLEDGER_DATA_DIR ?? './.memledger');
  const created = await createMasterKeyFileIfMissing(path);
  return { keyring: { current: await readMasterKeyFile(path), previous }, source: { kind: 'file', path, created } };
}

async function readMasterKeyFile(path: string): Promise<MasterKey> {
  const info = await stat(path);
  if (process.platform !== 'win32' && (info.mode & 0o077) !== 0) throw new MasterKeyFileExposed(path, info.mode);
  return parseMasterKey(await readFile(path, 'utf8'), path);
}

/**
 * Writes a fresh key to a private temporary file, then link()s it into place:
 * link never replaces an existing file, so when processes start at once exactly
 * one key wins and no reader ever sees a half-written file.
 */
async function createMasterKeyFileIfMissing(path: string): Promise<boolean> {
  try {
    await stat(path);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const dir = dirname(path);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const file = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    await file.chmod(0o600);
    await file.writeFile(`${randomBytes(KEY_BYTES).toString('base64')}\n`, 'utf8');
    await file.sync();
  } finally {
    await file.close();
  }
  try {
    await link(temporary, path);
    await syncDirectory(dir);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary);
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, constants.O_RDONLY);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
