import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmod, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MasterKeyFileExposed, MasterKeyInvalid } from '../../src/infrastructure/key-store/errors.js';
import { loadMasterKeyring, masterKeyFilePath } from '../../src/infrastructure/key-store/master-key.js';

const run = promisify(execFile);
const masterKeyModule = resolve('src/infrastructure/key-store/master-key.ts');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memledger-master-key-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('master key from MEMLEDGER_MASTER_KEY', () => {
  it('takes base64 of 32 bytes and writes no file', async () => {
    const bytes = randomBytes(32);
    const dataDir = join(dir, 'data');
    const { keyring, source } = await loadMasterKeyring({ env: { MEMLEDGER_MASTER_KEY: bytes.toString('base64') }, dataDir });
    expect(source).toEqual({ kind: 'environment', variable: 'MEMLEDGER_MASTER_KEY' });
    expect(keyring.current.bytes).toEqual(bytes);
    expect(keyring.current.id).toMatch(/^master_[0-9a-f]{16}$/);
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('rejects a value that is not base64 of exactly 32 bytes, naming the variable', async () => {
    for (const value of ['not-base64!', randomBytes(16).toString('base64'), randomBytes(33).toString('base64')]) {
      const attempt = loadMasterKeyring({ env: { MEMLEDGER_MASTER_KEY: value }, dataDir: dir });
      await expect(attempt).rejects.toBeInstanceOf(MasterKeyInvalid);
      await expect(attempt).rejects.toMatchObject({ source: 'MEMLEDGER_MASTER_KEY' });
    }
  });

  it('reads retired keys from MEMLEDGER_MASTER_KEY_PREVIOUS', async () => {
    const [a, b, c] = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const { keyring } = await loadMasterKeyring({
      env: { MEMLEDGER_MASTER_KEY: a.toString('base64'), MEMLEDGER_MASTER_KEY_PREVIOUS: `${b.toString('base64')},${c.toString('base64')}` },
    });
    expect(keyring.previous.map((key) => key.bytes)).toEqual([b, c]);
  });
});

describe('master key file in the data folder', () => {
  it('is generated at first use with mode 0600 and reused afterwards', async () => {
    const dataDir = join(dir, 'nested', 'data');
    const first = await loadMasterKeyring({ env: {}, dataDir });
    const path = masterKeyFilePath(dataDir);
    expect(first.source).toEqual({ kind: 'file', path, created: true });
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    expect(Buffer.from((await readFile(path, 'utf8')).trim(), 'base64')).toEqual(first.keyring.current.bytes);

    const second = await loadMasterKeyring({ env: {}, dataDir });
    expect(second.source).toEqual({ kind: 'file', path, created: false });
    expect(second.keyring.current.id).toBe(first.keyring.current.id);
    expect(await readdir(dataDir)).toEqual(['master.key']);
  });

  it('follows MEMLEDGER_DATA_DIR', async () => {
    const { source } = await loadMasterKeyring({ env: { MEMLEDGER_DATA_DIR: dir } });
    expect(source).toMatchObject({ kind: 'file', path: join(dir, 'master.key') });
  });

  it('refuses a key file other users can read', async () => {
    await loadMasterKeyring({ env: {}, dataDir: dir });
    await chmod(masterKeyFilePath(dir), 0o644);
    await expect(loadMasterKeyring({ env: {}, dataDir: dir })).rejects.toBeInstanceOf(MasterKeyFileExposed);
  });

  it('refuses a corrupt key file, naming it', async () => {
    await writeFile(masterKeyFilePath(dir), 'short\n', { mode: 0o600 });
    await expect(loadMasterKeyring({ env: {}, dataDir: dir })).rejects.toMatchObject({
      name: 'MasterKeyInvalid',
      source: masterKeyFilePath(dir),
    });
  });

  it('gives every process the same key when several start at once', async () => {
    const script = `
      const m = await import(${JSON.stringify(masterKeyModule)});
      const r = await m.loadMasterKeyring({ env: {}, dataDir: process.argv[1] });
      console.log(JSON.stringify({ id: r.keyring.current.id, created: r.source.created }));`;
    const outputs = await Promise.all(
      Array.from({ length: 4 }, () => run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script, dir])),
    );
    const results = outputs.map((output) => JSON.parse(output.stdout) as { id: string; created: boolean });
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await readdir(dir)).toEqual(['master.key']);
    const { keyring } = await loadMasterKeyring({ env: {}, dataDir: dir });
    expect(keyring.current.id).toBe(results[0]!.id);
  });
});
