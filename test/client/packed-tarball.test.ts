// The package as a user gets it (issue 21): `npm pack` of a fresh build,
// installed into an empty folder offline (the dependencies from npm's cache,
// pinned by a lockfile derived from the project's), then `npx memledger demo`,
// a 10-line client script in plain JavaScript (no TypeScript compiler is in
// that folder), and `tsc --noEmit` over a consumer that uses the client's
// types (test/fixtures/consumer/agent-loop.ts, the README's agent loop).
import { execFile } from 'node:child_process';
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFreshBuild } from '../support/fresh-build.js';
import { startTestService, type TestService } from '../api/service.js';

const exec = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

let work: string;
let app: string;
let t: TestService;

interface LockEntry {
  readonly version?: string;
  readonly name?: string;
  readonly resolved?: string;
  readonly dev?: boolean;
  readonly link?: boolean;
  readonly [field: string]: unknown;
}

/** The consumer's lockfile: the tarball, and the project's own non-development packages (their tarballs are in npm's cache). */
async function consumerLock(tarball: string): Promise<unknown> {
  const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
  const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const packages: Record<string, unknown> = {
    '': { name: 'consumer', dependencies: { memledger: `file:${tarball}` } },
    'node_modules/memledger': { version: pkg.version, resolved: `file:${tarball}`, dependencies: pkg.dependencies, bin: pkg.bin },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.dev || entry.link) continue;
    const name = entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    // The project's lock keeps no `resolved`; without one npm would ask the registry for the package's metadata.
    const resolved = entry.resolved ?? `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`;
    packages[path] = { ...entry, resolved };
  }
  return { name: 'consumer', lockfileVersion: 3, requires: true, packages };
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'memledger-packed-'));
  const stage = join(work, 'stage');
  await copyFreshBuild(join(stage, 'dist'));
  await copyFile(join(ROOT, 'package.json'), join(stage, 'package.json'));
  await cp(join(ROOT, 'bin'), join(stage, 'bin'), { recursive: true });
  // The build is done above (prepare would also build the console, which the demo and the client do not need).
  const { stdout } = await exec('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: stage });
  const tarball = join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);

  app = join(work, 'app');
  await mkdir(app);
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module', dependencies: { memledger: `file:${tarball}` } }),
  );
  await writeFile(join(app, 'package-lock.json'), JSON.stringify(await consumerLock(tarball)));
  await exec('npm', ['ci', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: app });
  t = await startTestService('packed', { config: { consolidationWorkers: 0 } });
}, 900_000);

afterAll(async () => {
  await t?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const CLIENT_SCRIPT = `import { createClient } from 'memledger/client';
const memory = createClient({ baseUrl: process.env.BASE_URL, apiKey: process.env.API_KEY });
const entry = { kind: 'profile', key: 'notification.preference', value: { type: 'text', text: 'sms' }, source: { type: 'user_assertion' } };
const saved = await memory.record('u1', entry);
if (!saved.ok) throw new Error(saved.problem.detail);
const recalled = await memory.recall('u1', { query: 'how to notify the user?' });
const bad = await memory.record('u1', { ...entry, kind: 'dream' });
const { openLedger, recall } = await import('memledger');
console.log(JSON.stringify({ memoryId: saved.value.memoryId, items: recalled.value.items.map((i) => i.memoryId), bad: bad.problem, library: [typeof openLedger, typeof recall] }));
`;

describe('the packed tarball in an empty folder', () => {
  it('installs without a TypeScript compiler and runs npx memledger demo', async () => {
    expect(existsSync(join(app, 'node_modules/memledger/dist/client/index.d.ts'))).toBe(true);
    expect(existsSync(join(app, 'node_modules/typescript'))).toBe(false);
    expect(existsSync(join(app, 'node_modules/tsx'))).toBe(false);
    const { stdout } = await exec('npx', ['--offline', 'memledger', 'demo'], { cwd: app, env: { ...process.env, ...t.env } });
    expect(stdout).toMatch(/delivery\.city\s+CONFLICTS/);
    expect(stdout).toMatch(/recall answers from: summary \(summary_current\)/);
  });

  it('runs a 10-line client script against the service', async () => {
    expect(CLIENT_SCRIPT.trim().split('\n')).toHaveLength(9);
    await writeFile(join(app, 'client.mjs'), CLIENT_SCRIPT);
    const env = { ...process.env, BASE_URL: t.url, API_KEY: await t.key('acme', 'writer') };
    const { stdout } = await exec(process.execPath, ['client.mjs'], { cwd: app, env });
    const out = JSON.parse(stdout) as { memoryId: string; items: string[]; bad: { code: string; field: string }; library: string[] };
    expect(out.items).toEqual([out.memoryId]);
    expect(out.bad).toMatchObject({ code: 'invalid_input', field: 'kind' });
    expect(out.library).toEqual(['function', 'function']);
  });

  it("compiles a consumer against the client's types (tsc --noEmit)", async () => {
    await copyFile(join(ROOT, 'test/fixtures/consumer/agent-loop.ts'), join(app, 'agent-loop.ts'));
    const compilerOptions = {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: ['ES2023', 'DOM'],
      types: [],
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    };
    await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['agent-loop.ts'] }));
    const run = await exec(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.json')]).then(
      () => ({ code: 0, out: '' }),
      (error: { code: number; stdout: string }) => ({ code: error.code, out: error.stdout }),
    );
    expect(run).toEqual({ code: 0, out: '' });
  });
});
