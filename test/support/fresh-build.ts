// `tsc -p tsconfig.build.json` of this test run's sources and its CLI bundle
// (scripts/bundle-cli.mjs), made once and
// shared by the tests that need the production build (test/build, the packed
// tarball): the compile is ~30 s of CPU, and those files run side by side.
// The first caller builds (a folder made with mkdir is the lock) and the
// others wait for its `done` mark; each copies the output into its own package.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { compiledFolder } from './compiled-sources.js';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** Copies this run's production build (dist/ with declarations and source maps) to `target`. */
export async function copyFreshBuild(target: string): Promise<void> {
  await cp(await freshBuild(), target, { recursive: true });
}

async function freshBuild(): Promise<string> {
  // The global setup's folder for this run (compiled-sources.ts); a file run on its own builds in a folder of its own.
  const run = compiledFolder() ?? join(ROOT, `.tested-${process.pid}`);
  const home = join(run, '.build');
  const dist = join(home, 'dist');
  try {
    await mkdir(home, { recursive: false });
  } catch {
    return waitFor(home, dist);
  }
  try {
    await exec(process.execPath, [
      join(ROOT, 'node_modules/typescript/bin/tsc'),
      '-p',
      join(ROOT, 'tsconfig.build.json'),
      '--outDir',
      dist,
      '--incremental',
      'false',
    ]);
    await exec(process.execPath, [join(ROOT, 'scripts/bundle-cli.mjs'), dist]);
    await writeFile(join(home, 'done'), '');
    return dist;
  } catch (error) {
    await writeFile(join(home, 'failed'), String(error));
    throw error;
  }
}

async function waitFor(home: string, dist: string): Promise<string> {
  for (;;) {
    if (existsSync(join(home, 'done'))) return dist;
    if (existsSync(join(home, 'failed'))) throw new Error(`the shared build failed: ${await readFile(join(home, 'failed'), 'utf8')}`);
    await sleep(200);
  }
}
