// The production build (issue 20, item 2), one of the two tests that run it: a
// fresh `npm run build` output (test/support/fresh-build.ts, shared with the
// packed tarball's test) in a package folder whose node_modules has no
// tsx (nothing can compile TypeScript there), run the way users run it —
// bin/memledger.mjs, and `npm start`, which a kill of npm stops (issue 12,
// item 10). Every other child-process test runs the sources (test/support/cli.ts).
import { spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFreshBuild } from '../support/fresh-build.js';
import { cliEnvironment } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** What only development needs: with these absent, the package cannot be running TypeScript. */
const DEVELOPMENT_ONLY = new Set(['tsx', 'typescript', 'esbuild', '@esbuild', '.bin']);

let pkg: string;
let db: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  pkg = await mkdtemp(join(tmpdir(), 'memledger-built-'));
  await copyFreshBuild(join(pkg, 'dist'));
  await mkdir(join(pkg, 'bin'));
  await copyFile(join(ROOT, 'bin/memledger.mjs'), join(pkg, 'bin/memledger.mjs'));
  await copyFile(join(ROOT, 'package.json'), join(pkg, 'package.json'));
  await mkdir(join(pkg, 'node_modules'));
  for (const name of await readdir(join(ROOT, 'node_modules'))) {
    if (!DEVELOPMENT_ONLY.has(name)) await symlink(join(ROOT, 'node_modules', name), join(pkg, 'node_modules', name));
  }
  db = await createTestDatabase('built_package');
  env = { ...process.env, ...cliEnvironment(db.url) } as Record<string, string>;
}, 600_000);

afterAll(async () => {
  await db?.drop();
  if (pkg) await rm(pkg, { recursive: true, force: true });
});

function cli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(pkg, 'bin/memledger.mjs'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** `npm start` in the package; resolves with the URL once it serves, and with its end once every process writing to its output is gone. */
function npmStart() {
  const child = spawn('npm', ['start', '--', '--port', '0'], {
    cwd: pkg,
    env: { ...env, MEMLEDGER_LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const closed = new Promise<string>((resolve) => child.stdout.once('close', () => resolve(output)));
  child.stderr.on('data', (d) => (output += d));
  const serving = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const url = /"msg":"memledger serving"/.test(output) ? /"url":"(http:[^"]+)"/.exec(output)?.[1] : undefined;
      if (url) resolve(url);
    });
    void closed.then(() => reject(new Error(`npm start ended before serving:\n${output}`)));
  });
  return { child, serving, closed };
}

describe('the built package', () => {
  it('has JavaScript and type declarations in dist/, and its CLI answers without tsx', async () => {
    expect(existsSync(join(pkg, 'dist/cli/main.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist/cli/main.d.ts'))).toBe(true);
    // The CLI's bundle, what bin/memledger.mjs runs when it is there (scripts/bundle-cli.mjs), with the reaper's entry beside it.
    expect(existsSync(join(pkg, 'dist/bundle/main.js'))).toBe(true);
    expect(existsSync(join(pkg, 'dist/bundle/reaper-main.js'))).toBe(true);
    expect(existsSync(join(pkg, 'node_modules/tsx'))).toBe(false);

    const version = await cli(['--version']);
    expect(version.code, version.stderr).toBe(0);
    const entry = {
      kind: 'profile',
      key: 'notification.preference',
      value: { type: 'text', text: 'sms' },
      source: { type: 'user_assertion' },
    };
    const recorded = await cli(['record', '--tenant', 'acme', '--subject', 'u1', '--entry', JSON.stringify(entry)]);
    expect(recorded.code, recorded.stderr).toBe(0);
    const { memoryId } = JSON.parse(recorded.stdout) as { memoryId: string };
    const recalled = await cli(['recall', '--tenant', 'acme', '--subject', 'u1']);
    expect(recalled.code, recalled.stderr).toBe(0);
    expect(recalled.stdout).toContain(memoryId);
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)('serves through npm start, and a %s of npm stops the server', async (signal) => {
    const started = npmStart();
    const url = await started.serving;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    started.child.kill(signal);
    // A server left running keeps the output open: give up on it after a minute instead of hanging.
    const output = await Promise.race([
      started.closed,
      new Promise<string>((resolve) => setTimeout(() => resolve('still running a minute after npm was killed'), 60_000).unref()),
    ]);
    expect(output).toContain('"msg":"stopped"');
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
