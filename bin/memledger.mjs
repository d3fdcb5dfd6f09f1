#!/usr/bin/env node
// The CLI runs the build in dist/ (`npm run build`; `npm ci` builds it through
// `prepare`): nothing is compiled at start, and its bundle (dist/bundle, made by
// scripts/bundle-cli.mjs) when it is there, a few dozen files to load instead of
// some 600 modules. Tests and development run the TypeScript sources instead
// (test/support/cli.ts, `npm run dev`).
import { existsSync } from 'node:fs';

const bundled = new URL('../dist/bundle/main.js', import.meta.url);
const main = existsSync(bundled) ? bundled : new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    `${JSON.stringify({ error: 'not_built', message: `${main.pathname} is missing: run "npm run build" (npm ci does it) in ${new URL('..', import.meta.url).pathname}` })}\n`,
  );
  process.exit(1);
}
await import(main.href);
