// Runs the real CLI in a child process. A child runs the sources of this
// test run, compiled once by the global setup (compiled-sources.ts), never a
// dist/ left from an earlier build; without that setup (a file run outside
// vitest's config) it runs them through tsx. test/build/built-package.test.ts
// builds a fresh dist/ and proves that what bin/memledger.mjs runs in
// production works.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { nodeArgumentsFor } from './compiled-sources.js';

/** Node's arguments before the CLI's own: `spawn(process.execPath, [...CLI, 'serve'])`. */
export const CLI: readonly string[] = nodeArgumentsFor(fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url)));

export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string>, stdin?: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...CLI, ...args], { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

/** The environment of a CLI bound to one test database (no embedded server, a fixed master key). */
export function cliEnvironment(databaseUrl: string): Record<string, string> {
  return {
    MEMLEDGER_EVENTSTORE_URL: databaseUrl,
    MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'),
    NO_COLOR: '1',
  };
}

/** The environment of a user who configured nothing: no MEMLEDGER_* but the data folder (the embedded default). */
export function unconfiguredEnvironment(dataDir: string): Record<string, string> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name, value]) => !name.startsWith('MEMLEDGER_') && value !== undefined),
  ) as Record<string, string>;
  return { ...env, MEMLEDGER_DATA_DIR: dataDir, NO_COLOR: '1' };
}
