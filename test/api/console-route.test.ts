// The console's static route on its own: only the files of the built folder,
// with the page's policy; a folder without a build says how to make one.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CSP, registerConsole } from '../../src/api/console/console-route.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'memledger-console-route-'));
  await mkdir(join(root, 'built', 'assets'), { recursive: true });
  await writeFile(join(root, 'built', 'index.html'), '<!doctype html><title>c</title>');
  await writeFile(join(root, 'built', 'assets', 'index-abc.js'), 'export {};');
  await writeFile(join(root, 'built', 'notes.md'), 'not a served type');
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

async function appOn(dir: string) {
  const app = Fastify();
  registerConsole(app, dir);
  await app.ready();
  return app;
}

describe('the console route', () => {
  it('serves the built page and its hashed assets under the policy, and nothing else', async () => {
    const app = await appOn(join(root, 'built'));
    const page = await app.inject({ url: '/console/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(CONSOLE_CSP);
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await app.inject({ url: '/console/assets/index-abc.js' });
    expect([asset.statusCode, asset.headers['content-type'], asset.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'public, max-age=31536000, immutable',
    ]);
    for (const url of ['/console/notes.md', '/console/assets/index-abc.js/x', '/console/nope.js']) {
      const refused = await app.inject({ url });
      expect([url, refused.statusCode, refused.json<{ code: string }>().code]).toEqual([url, 404, 'console_file_not_found']);
    }
    // A path that climbs out of the folder never reaches the disk (fastify's own 404 here, the API's problem in the service).
    for (const url of ['/console/../package.json', '/console/%2e%2e/package.json', '/console/assets/%2e%2e/%2e%2e/package.json']) {
      const refused = await app.inject({ url });
      expect([url, refused.statusCode, refused.body.includes('"name"')]).toEqual([url, 404, false]);
    }
    const bare = await app.inject({ url: '/console' });
    expect([bare.statusCode, bare.headers.location]).toEqual([301, '/console/']);
    await app.close();
  });

  it('says how to build the console when its folder holds no build', async () => {
    const app = await appOn(join(root, 'missing'));
    const page = await app.inject({ url: '/console/' });
    expect(page.statusCode).toBe(404);
    expect(page.json<{ detail: string }>().detail).toContain('npm run build:console');
    await app.close();
  });
});
