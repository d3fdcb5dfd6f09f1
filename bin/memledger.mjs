#!/usr/bin/env node
// The CLI runs the build in dist/ (`npm run build`; `npm ci` builds it through
// `prepare`): nothing is compiled at start. Tests and development run the
// TypeScript sources through tsx instead (test/support/cli.ts, `npm run dev`).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write(
    `${JSON.stringify({ error: 'not_built', message: `${main.pathname} is missing: run "npm run build" (npm ci does it) in ${new URL('..', import.meta.url).pathname}` })}\n`,
  );
  process.exit(1);
}
await import(main.href);
