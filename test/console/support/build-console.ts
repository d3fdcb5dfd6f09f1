// The console built from console/ as `npm run build:console` builds it, into
// a folder of the test's own (so a test always serves the sources it sees).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

export async function buildConsole(): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'memledger-console-'));
  await build({
    root: fileURLToPath(new URL('../../../console', import.meta.url)),
    logLevel: 'warn',
    build: { outDir: dir, emptyOutDir: true },
  });
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
