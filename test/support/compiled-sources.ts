// The sources as JavaScript, once per test run. A CLI child started through
// tsx spends ~2.5 s of CPU compiling TypeScript before it does anything, and
// the suite starts a few hundred of them; esbuild turns all of src/ into
// JavaScript in about a second (the same transform tsx applies, file by file,
// no bundling), so every child still runs the code under test. The folder
// sits beside src/ (`.tested-<pid>/` mirrors `dist/`), so the paths the code
// finds relative to itself (package.json, eval/, console/dist) resolve the
// same. test/build/built-package.test.ts still proves the real `npm run build`.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '.tested-';

export interface CompiledSources {
  /** The compiled CLI's entry point: `node <cliEntry> …`. */
  readonly cliEntry: string;
  remove(): void;
}

export async function compileSources(): Promise<CompiledSources> {
  removeAbandoned();
  const outdir = join(ROOT, `${PREFIX}${process.pid}`);
  await build({
    entryPoints: [join(ROOT, 'src/**/*.ts')],
    outbase: join(ROOT, 'src'),
    outdir,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  return { cliEntry: join(outdir, 'cli/main.js'), remove: () => rmSync(outdir, { recursive: true, force: true }) };
}

/** Folders of earlier runs that were killed before they could remove theirs. */
function removeAbandoned(): void {
  for (const name of readdirSync(ROOT)) {
    if (!name.startsWith(PREFIX)) continue;
    const pid = Number(name.slice(PREFIX.length));
    if (Number.isInteger(pid) && !alive(pid)) rmSync(join(ROOT, name), { recursive: true, force: true });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
