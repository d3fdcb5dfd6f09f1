// The auditor's console (console/, built by `npm run build:console`) as
// static files under /console. The page holds no data of its own: it calls
// the same /v1 routes with the key the auditor types in, so it shows nothing
// the key could not read. The built folder is read once at start; only the
// files found there are served (no path from a request reaches the disk).
// A strict Content-Security-Policy lets the page reach nothing but this
// origin, run no inline script or style, and be framed by nobody.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { problem, PROBLEM_CONTENT_TYPE } from '../problem.js';

export const CONSOLE_PATH = '/console';

export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const MEDIA_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

interface ConsoleFile {
  readonly body: Buffer;
  readonly mediaType: string;
  /** Vite names assets by content hash: they never change under their name. */
  readonly immutable: boolean;
}

/** Where `npm run build:console` writes: console/dist beside the package's package.json. */
export function defaultConsoleDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return join(dir, 'console', 'dist');
}

function readConsoleFiles(root: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!existsSync(join(root, 'index.html'))) return files;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const mediaType = MEDIA_TYPES[extname(entry.name)];
    if (!mediaType) continue;
    const path = join(entry.parentPath, entry.name);
    const name = relative(root, path).split(sep).join('/');
    files.set(name, { body: readFileSync(path), mediaType, immutable: name.startsWith('assets/') });
  }
  return files;
}

function send(reply: FastifyReply, file: ConsoleFile): FastifyReply {
  return reply
    .header('content-security-policy', CONSOLE_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-opener-policy', 'same-origin')
    .header('cache-control', file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache')
    .type(file.mediaType)
    .send(file.body);
}

/** GET /console redirects to /console/ (the page's relative asset URLs need the slash); /console/ is the page. */
export function registerConsole(app: FastifyInstance, root: string = defaultConsoleDir()): void {
  const files = readConsoleFiles(root);
  const missing = (reply: FastifyReply, detail: string) =>
    reply
      .code(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problem(404, 'console_file_not_found', detail));
  app.get(CONSOLE_PATH, async (_request, reply) => reply.redirect(`${CONSOLE_PATH}/`, 301));
  app.get<{ Params: { '*': string } }>(`${CONSOLE_PATH}/*`, async (request, reply) => {
    const name = request.params['*'] || 'index.html';
    const file = files.get(name);
    if (file) return send(reply, file);
    if (files.size === 0) return missing(reply, `the console is not built in ${root}: run npm run build:console`);
    return missing(reply, `no console file ${name}`);
  });
}
