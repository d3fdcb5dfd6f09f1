// Headless Chromium from Debian's package (`apt-get install chromium`;
// .ci/run installs it when missing), driven by playwright-core: one browser
// with a fresh profile, pages that may reach only the service under test
// (any other request is aborted and recorded, so a test can prove the
// console reaches nothing outside the machine).
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  readonly context: BrowserContext;
  /** Requests to anywhere but `origin`, aborted. */
  readonly outside: readonly string[];
  close(): Promise<void>;
}

export async function launchBrowser(origin: string): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: install Debian's package (apt-get install -y chromium)`);
  const profile = await mkdtemp(join(tmpdir(), 'memledger-chromium-'));
  // Playwright passes the profile as --user-data-dir itself.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport: { width: 1360, height: 900 },
    acceptDownloads: true,
  });
  const outside: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('blob:')) return route.continue();
    outside.push(url);
    return route.abort();
  });
  return {
    context,
    outside,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
