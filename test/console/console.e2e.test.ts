// The auditor's console end to end: the page `memledger serve` ships at
// /console, in headless Chromium, over a service holding the demo's history
// (plus two later summaries, so a lineage has claims and a parent). One
// browser; a page per key. Screenshots of each view go to
// $MEMLEDGER_CONSOLE_SCREENSHOTS when it is set (docs/console holds the
// committed ones).
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilitiesOf } from '../../console/src/api/capabilities.js';
import type { DecodedEvent, OpenedField, Receipt, StaleSet, SubjectReceipts, Value } from '../../console/src/api/types.js';
import { FIRST_ENTRIES } from '../../src/demo/script.js';
import { accessibilityViolations } from './support/axe.js';
import { launchBrowser, type Browser } from './support/browser.js';
import { buildConsole } from './support/build-console.js';
import { startDemoService, type DemoService } from './support/demo-service.js';

const ERASED = FIRST_ENTRIES.phone.value.text; // '+49 30 5550 1234'
const SHOTS = process.env.MEMLEDGER_CONSOLE_SCREENSHOTS;

let built: Awaited<ReturnType<typeof buildConsole>>;
let demo: DemoService;
let browser: Browser;
let auditorPage: Page;
/** Everything an auditor's page showed, view by view (HTML and visible text). */
const seen: string[] = [];
const problems: string[] = [];
let summaries: { demo: string; parent: string; latest: string };

async function api<T>(method: string, path: string, key: string, body?: unknown): Promise<T> {
  const response = await demo.service.request(method, path, { key, ...(body !== undefined ? { body } : {}) });
  expect(response.status, response.text).toBeLessThan(300);
  return response.body as T;
}

async function consolidate(key: string): Promise<string> {
  const run = await api<{ status: string; publish: { artifactId: string } }>('POST', `/v1/subjects/${demo.subject}/consolidations`, key, {
    mode: 'run',
  });
  expect(run.status).toBe('switched');
  return run.publish.artifactId;
}

async function openConsole(key: string, view: string): Promise<Page> {
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${demo.service.url}/console/#/${view}?subject=${demo.subject}`);
  await page.getByLabel('API key').fill(key);
  await page.getByRole('button', { name: 'Use key' }).click();
  return page;
}

async function record(page: Page, name: string): Promise<void> {
  seen.push(`${name}:\n${await page.content()}\n${await page.locator('body').innerText()}`);
  if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  const violations = await accessibilityViolations(page);
  expect(violations, `${name}: ${JSON.stringify(violations, null, 2)}`).toEqual([]);
}

async function goTo(page: Page, view: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: view }).click();
  // The view's heading takes the keyboard focus, as a page load would.
  await expect.poll(() => page.evaluate('document.activeElement?.tagName')).toBe('H2');
}

beforeAll(async () => {
  if (SHOTS) await mkdir(SHOTS, { recursive: true });
  built = await buildConsole();
  demo = await startDemoService(built.dir);
  // After the demo's erasure its summaries are STALE: a writer summarises again, records one more entry and summarises on top.
  const writer = await demo.service.key(demo.tenant, 'writer');
  const stale = await api<StaleSet>('GET', `/v1/subjects/${demo.subject}/stale`, demo.keys.auditor);
  const parent = await consolidate(writer);
  await api<unknown>('POST', `/v1/subjects/${demo.subject}/memories`, writer, {
    kind: 'profile',
    key: 'delivery.window',
    value: { type: 'text', text: 'weekday mornings' },
    source: { type: 'user_assertion', refs: ['msg://thread-11/turn-2'] },
  });
  summaries = { demo: stale.alias!.artifactId, parent, latest: await consolidate(writer) };
  browser = await launchBrowser(demo.service.url);
  auditorPage = await openConsole(demo.keys.auditor, 'timeline');
}, 300_000);

afterAll(async () => {
  await browser?.close();
  await demo?.service.close();
  await built?.remove();
});

describe("the auditor's console", () => {
  it('is served under a strict Content-Security-Policy, with no inline script or style', async () => {
    const page = await demo.service.request('GET', '/console/');
    expect(page.status).toBe(200);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toContain('unsafe');
    expect(page.text).toMatch(/<script type="module" crossorigin src="\.\/assets\/[^"]+\.js"><\/script>/);
    expect(page.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page.text).not.toMatch(/<style|style=/);
    const bare = await fetch(`${demo.service.url}/console`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/console/']);
    expect((await demo.service.request('GET', '/console/no-such-file.js')).status).toBe(404);
  });

  it('timeline: before the SMS change the system believed email, after it SMS, and replay agrees at both', async () => {
    const page = auditorPage;
    const events = await api<DecodedEvent[]>('GET', `/v1/subjects/${demo.subject}/events`, demo.keys.auditor);
    const superseded = events.findIndex((e) => e.type === 'MemorySuperseded');
    const sms = events.findIndex((e) => e.type === 'MemoryRecorded' && textOf(e) === 'sms');
    const before = Math.min(superseded, sms) - 1;
    const after = Math.max(superseded, sms);
    const preference = (side: string) => page.locator(`#${side} tr[data-key="notification.preference"]`);

    const slider = page.getByLabel('System time T (what had been committed)');
    await slider.fill(String(before));
    await page.locator('#as-of tr[data-key="notification.preference"]:has-text("email")').waitFor();
    expect(await preference('replay').innerText()).toContain('email');
    expect(await page.locator('#agreement').innerText()).toMatch(/^As-of and replay agree/);
    expect(await page.locator('#system-time-value').innerText()).toContain(`event #${events[before]!.revision}`);

    // Keyboard: the slider moves with the arrow keys.
    await slider.focus();
    for (let i = before; i < after; i++) await page.keyboard.press('ArrowRight');
    await page.locator('#as-of tr[data-key="notification.preference"]:has-text("sms")').waitFor();
    expect(await preference('as-of').count()).toBe(1);
    expect(await preference('replay').innerText()).toContain('sms');
    expect(await page.locator('#agreement').innerText()).toMatch(/^As-of and replay agree/);
    // The phone number was erased later: at this T the system held it, but it can no longer be read.
    expect(await page.locator('#as-of tr[data-key="contact.phone"]').innerText()).toContain('forgotten (key destroyed)');
    expect(await page.locator('li.event[data-type="MemoryRecorded"]:has-text("contact.phone =")').innerText()).toContain(
      '[forgotten: key destroyed]',
    );

    // Valid time V apart from T: at the earliest business time, after the change, the email entry held for the window it kept.
    await page.getByLabel('Valid time V follows T').uncheck();
    await page.getByLabel('Valid time V (the business time asked about)').focus();
    await page.keyboard.press('Home');
    await page.locator('#as-of tr[data-key="notification.preference"]:has-text("superseded")').waitFor();
    expect(await preference('as-of').innerText()).toContain('email');
    expect(await preference('replay').innerText()).toContain('email');
    expect(await page.locator('#agreement').innerText()).toMatch(/^As-of and replay agree/);
    await page.getByLabel('Valid time V follows T').check();
    await page.locator('#as-of tr[data-key="notification.preference"]:has-text("sms")').waitFor();
    await record(page, 'timeline');
  });

  it('lineage: the alias history, the summary graph with its inputs, STALE causes, a PROV-JSON download', async () => {
    const page = auditorPage;
    await goTo(page, 'Lineage');
    // Four switches: the demo's two summaries (STALE now), then the two written here.
    await page.locator('#lineage-heading').waitFor();
    expect(await page.locator('#alias-history tbody tr').count()).toBe(4);
    expect(await page.locator('#alias-history tbody tr', { hasText: 'MemoryForgotten' }).count()).toBe(1);
    expect(await page.locator('#lineage-heading').innerText()).toContain(summaries.latest);
    // The latest summary is built on its parent; its claims point at memory versions.
    expect(await page.locator(`[data-node="artifact:${summaries.latest}"]`).count()).toBe(1);
    expect(await page.locator(`[data-node="artifact:${summaries.parent}"]`).count()).toBe(1);
    expect(await page.locator('.edge-parent').count()).toBe(1);
    expect(await page.locator('.edge-derived_from').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-node^="claim:"]', { hasText: 'notification.preference' }).count()).toBe(1);
    // Keyboard: Tab to a box, Enter for what it is.
    const parentNode = page.locator(`[data-node="artifact:${summaries.parent}"]`);
    await parentNode.focus();
    await page.keyboard.press('Enter');
    await page.locator('.node-details', { hasText: summaries.parent }).waitFor();
    await record(page, 'lineage');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download PROV-JSON' }).click()]);
    const prov = JSON.parse(await readDownload(download)) as { entity: Record<string, unknown> };
    expect(Object.keys(prov.entity)).toContain(`ml:artifact/${summaries.latest}`);
    expect(Object.keys(prov.entity)).toContain(`ml:artifact/${summaries.parent}`);

    // The demo's summary: STALE since the phone number was erased; its inputs, the erased one marked.
    await page.getByRole('button', { name: `Show the lineage of ${summaries.demo}` }).click();
    await page.locator(`#lineage-heading:has-text("${summaries.demo}")`).waitFor();
    const phoneId = (await receipts())[0]!.memoryIds[0]!;
    expect(await page.locator('.stale-cause').innerText()).toContain(`MemoryForgotten of memory ${phoneId}`);
    const inputs = page.locator(`table.inputs[data-artifact="${summaries.demo}"] tbody tr`);
    expect(await inputs.count()).toBe(7);
    expect(await inputs.filter({ hasText: phoneId }).innerText()).toMatch(/contact\.phone\s+v1\s+8\s+forgotten\s+MemoryForgotten/);
    expect(await inputs.filter({ hasText: 'notification.preference' }).innerText()).toContain('active');
    expect(await page.locator('[data-node^="claim:"]').count()).toBe(0); // its output's key is destroyed
    seen.push(`lineage of the demo's summary:\n${await page.content()}`);
  });

  it('recall explained: the items ranked by the question, with scores, reasons and provenance, and what the hard filters left out', async () => {
    const page = auditorPage;
    const recallUrls: string[] = [];
    page.on('request', (r) => r.url().includes('/recall') && recallUrls.push(r.url()));
    await goTo(page, 'Recall explained');
    await page.getByLabel('Question').fill('How does the customer want to be contacted?');
    await page.getByLabel('Sensitivity ceiling').selectOption('normal');
    await page.getByRole('button', { name: 'Explain recall' }).click();
    await page.locator('#recall-answer').waitFor();
    const answer = await page.locator('#recall-answer').innerText();
    // The SMS preference is personal: above the ceiling asked for, so left out and counted.
    expect(await page.locator('#excluded tr', { hasText: 'above_sensitivity' }).innerText()).toMatch(/above_sensitivity\s+1\s/);
    expect(answer).not.toContain('notification.preference');
    expect(answer).toContain('contact.phone_calls');
    expect(answer).toContain('msg://thread-3/turn-5'); // provenance: the source ref
    // The server ranks by the question (its OpenAPI document lists it): the page sends it and shows each item's score and reasons.
    const openApi = (await demo.service.request('GET', '/openapi.json')).body as Parameters<typeof capabilitiesOf>[0];
    expect(capabilitiesOf(openApi).recallQuery).toBe(true);
    expect(recallUrls.some((u) => u.includes('query='))).toBe(true);
    expect(await page.locator('.retrieval').count()).toBeGreaterThan(0);
    expect(answer).toMatch(/Retrieval score \d\.\d{3}, rank 1/);
    await record(page, 'recall');
  });

  it('erasure: the receipt with its verification, run again; the erased text appears nowhere the auditor looked', async () => {
    const page = auditorPage;
    await goTo(page, 'Erasure');
    const issued = await receipts();
    expect(issued).toHaveLength(1);
    const card = page.locator(`article[data-receipt="${issued[0]!.receiptId}"]`);
    await card.waitFor();
    expect(await card.innerText()).toContain(issued[0]!.memoryIds[0]);
    expect(await card.locator('table.verification caption').innerText()).toContain('passed');
    const search = card.getByLabel(/Also search for/);
    await search.fill(ERASED);
    await card.getByRole('button', { name: 'Run the checks again' }).click();
    await card.locator('.rerun table.verification').waitFor();
    const rerun = await card.locator('.rerun').innerText();
    expect(rerun).toMatch(/passed/);
    expect(rerun).toMatch(/http_api\s+passed/);
    expect(rerun).toMatch(/recall\s+passed/);
    expect(await search.inputValue()).toBe('');
    await record(page, 'erasure');

    for (const shown of seen) expect(shown).not.toContain(ERASED);
    expect(seen.join('\n')).not.toContain('5550 1234');
    expect(browser.outside).toEqual([]);
    expect(problems).toEqual([]);
  });

  it('a reader key is refused every auditor view, as the API refuses it, and still sees recall', async () => {
    const page = await openConsole(demo.keys.reader, 'timeline');
    for (const [view, what] of [
      ['Subject timeline', "the subject's events"],
      ['Lineage', "the subject's summaries"],
      ['Erasure', 'the deletion receipts'],
    ] as const) {
      if (view !== 'Subject timeline') await goTo(page, view);
      const refusal = page.getByRole('alert');
      await refusal.waitFor();
      const text = await refusal.innerText();
      expect(text).toContain(`Refused ${what}`);
      expect(text).toContain('403');
      expect(text).toContain('a reader key may not do this');
      expect(await page.locator('main').innerText()).not.toContain('notification.preference');
    }
    await record(page, 'refused');
    await goTo(page, 'Recall explained');
    await page.getByRole('button', { name: 'Explain recall' }).click();
    await page.locator('#recall-answer').waitFor();
    expect(await page.locator('#recall-answer').innerText()).toContain('contact.phone_calls');
    await page.close();
    expect(problems).toEqual([]);
  });
});

/** A recorded entry's text value, as the events route opened it. */
function textOf(event: DecodedEvent): string | undefined {
  const value = event.data.value as OpenedField<Value> | undefined;
  return value?.status === 'readable' && value.plaintext.type === 'text' ? value.plaintext.text : undefined;
}

async function receipts(): Promise<readonly Receipt[]> {
  return (await api<SubjectReceipts>('GET', `/v1/subjects/${demo.subject}/receipts`, demo.keys.auditor)).receipts;
}

async function readDownload(download: import('playwright-core').Download): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(await download.path(), 'utf8');
}
