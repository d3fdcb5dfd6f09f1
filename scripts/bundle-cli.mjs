// `npm run build:server`'s second step: the compiled CLI (dist/cli/main.js),
// the embedded server's reaper and the service's consolidation thread bundled
// with esbuild into dist/bundle/,
// which bin/memledger.mjs runs when it is there. A one-shot command loaded
// about 600 ES modules one by one (kysely alone is 263), 1-2 s of a CLI
// record's wall time on this kind of machine; the bundle is a few dozen
// files, split per command (each command module is still loaded only when
// asked for). The files sit at dist/bundle/, two levels below the package
// like dist/cli/, so the paths the code resolves from import.meta.url
// (package.json, eval/, the reaper's and the thread's entries beside them) are the same.
// Left outside the bundle, loaded from node_modules as before: what finds
// files next to its own code at run time (the embedded PostgreSQL binaries,
// gRPC's proto files for EventStoreDB, pino's worker transports) and
// pg-native (an optional native addon pg asks for).
import { rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const dist = resolve(process.argv[2] ?? 'dist');
const outdir = join(dist, 'bundle');
await rm(outdir, { recursive: true, force: true });
await build({
  entryPoints: [
    join(dist, 'cli/main.js'),
    join(dist, 'infrastructure/embedded-postgres/reaper-main.js'),
    join(dist, 'api/service/consolidation-thread-main.js'),
  ],
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: [
    'embedded-postgres',
    '@embedded-postgres/*',
    '@eventstore/db-client',
    '@grpc/*',
    'pino',
    'pino-pretty',
    'thread-stream',
    'pg-native',
  ],
  // CommonJS dependencies inside an ES module bundle still call require() for node's own modules.
  banner: { js: "import { createRequire as __memledgerRequire } from 'node:module'; const require = __memledgerRequire(import.meta.url);" },
  logLevel: 'warning',
});
