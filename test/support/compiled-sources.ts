// The sources as JavaScript, once per test run. A child process started
// through tsx spends ~2 s of CPU compiling TypeScript before it does
// anything, and the suite starts a few hundred of them (CLI commands, servers,
// fixture scripts); esbuild turns src/ and test/ into JavaScript in about a
// second (the same transform tsx applies, file by file, no bundling), so every
// child still runs the code under test. The folder `.tested-<pid>/` mirrors the
// root, src/x.ts at .tested-<pid>/src/x.js, with links to what the code finds
// relative to itself (package.json, eval/, console/), so those paths resolve
// the same. test/build/built-package.test.ts still proves the real `npm run build`.
import { readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PREFIX = '.tested-';
/** Read by the code at run time, relative to its own file. */
const LINKED = ['package.json', 'eval', 'console'];
/** The variable that hands the folder on to the test workers and their children. */
const FOLDER = 'MEMLEDGER_TEST_COMPILED';

export interface CompiledSources {
  readonly folder: string;
  remove(): void;
}

/** Compiles src/ and test/ into a fresh `.tested-<pid>/` (the global setup calls it once). */
export async function compileSources(): Promise<CompiledSources> {
  removeAbandoned();
  const folder = join(ROOT, `${PREFIX}${process.pid}`);
  await build({
    entryPoints: [join(ROOT, 'src/**/*.ts'), join(ROOT, 'test/**/*.ts')],
    outbase: ROOT,
    outdir: folder,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
  });
  for (const name of LINKED) symlinkSync(join(ROOT, name), join(folder, name));
  process.env[FOLDER] = folder;
  return {
    folder,
    remove: () => {
      delete process.env[FOLDER];
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** This run's folder, or undefined outside vitest's global setup (a file run through tsx alone). */
export function compiledFolder(): string | undefined {
  return process.env[FOLDER];
}

/**
 * Node's arguments that run a TypeScript file of the project: its compiled
 * copy when this run has one, else the file itself through tsx.
 */
export function nodeArgumentsFor(tsFile: string): string[] {
  const folder = compiledFolder();
  if (!folder) return ['--import', import.meta.resolve('tsx'), tsFile];
  return [join(folder, relative(ROOT, tsFile).replace(/\.ts$/, '.js'))];
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
