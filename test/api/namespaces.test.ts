// Namespaces and keys bound to them (issue 19), over HTTP: a key for user
// u-7 gets on every route of user u-8's exactly what a subject that does not
// exist gets (404, never a hint), writes nothing, and tenant-wide routes
// refuse it; a user's recall may include the shared namespaces the key reads,
// each item naming its namespace; and seed 003's namespace failures.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../../src/api/app.js';
import type { ApiServices } from '../../src/api/services.js';
import { ApiKeyStore } from '../../src/infrastructure/api-keys/api-key-store.js';
import { runCli } from '../support/cli.js';
import { entry, problemOf, startTestService, type ApiResponse, type TestService } from './service.js';

let t: TestService;
let admin: string;
/** u-7's own key: its user namespace and every team, with every permission (so no role hides what the namespaces decide). */
let u7: string;
const ids = { memory: '', artifact: '', receipt: '', recall: '' };

const record = async (subject: string, text: string, overrides: Record<string, unknown> = {}, key = admin) => {
  const response = await t.request('POST', `/v1/subjects/${subject}/memories`, { key, body: entry(text, overrides) });
  expect(response.status, response.text).toBe(201);
  return response.body.memoryId as string;
};

beforeAll(async () => {
  t = await startTestService('api_namespaces');
  admin = await t.key('acme', 'admin');
  u7 = await t.key('acme', 'admin', ['user:u-7', 'team:*']);
  await record('user:u-7', 'u7 likes email');
  ids.memory = await record('user:u-8', 'u8 likes sms');
  await record('user:u-8', 'u8 works nights', { key: 'work.shift' });
  const erased = await record('user:u-8', 'u8 old phone', { key: 'contact.phone' });
  const prepared = await t.request('POST', '/v1/subjects/user:u-8/consolidations', { key: admin, body: { mode: 'prepare' } });
  expect(prepared.status, prepared.text).toBe(201);
  ids.artifact = prepared.body.artifactId as string;
  const receipt = await t.request('DELETE', `/v1/subjects/user:u-8/memories/${erased}`, { key: admin });
  expect(receipt.status, receipt.text).toBe(200);
  ids.receipt = receipt.body.receiptId as string;
  const recalled = await t.request('GET', '/v1/subjects/user:u-8/recall', { key: admin });
  expect(recalled.status, recalled.text).toBe(200);
  ids.recall = recalled.body.recallId as string;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const scrub = (r: ApiResponse, values: readonly string[]) => {
  let text = r.text;
  for (const value of values) text = text.split(encodeURIComponent(value)).join('<id>').split(value).join('<id>');
  return { status: r.status, body: JSON.parse(text) as unknown };
};

describe('a key bound to user:u-7', () => {
  it("answers 404 on every route of user u-8's, exactly as for a subject and artifact that do not exist, and writes nothing", async () => {
    const routes = apiRoutes({} as ApiServices, () => ({})).filter((r) => r.permission !== undefined);
    const before = await t.eventCount();
    const fill = (path: string, subject: string, artifactId: string) =>
      path
        .replace('{subject}', encodeURIComponent(subject))
        .replace('{memoryId}', ids.memory)
        .replace('{artifactId}', artifactId)
        .replace('{conflictId}', 'c-1')
        .replace('{receiptId}', ids.receipt)
        .replace('{recallId}', ids.recall);
    const checked: string[] = [];
    for (const route of routes) {
      const body = route.method === 'POST' ? {} : undefined;
      const call = (subject: string, artifactId: string) =>
        t.request(route.method, fill(route.path, subject, artifactId), { key: u7, ...(body ? { body } : {}) });
      const theirs = await call('user:u-8', ids.artifact);
      if (route.access === 'tenant') {
        expect({ route: route.operationId, status: theirs.status }).toEqual({ route: route.operationId, status: 403 });
        expect(problemOf(theirs)).toMatchObject({ code: 'forbidden', field: 'Authorization' });
        continue;
      }
      const missing = await call('user:u-nowhere', 'zz-nowhere');
      expect({ route: route.operationId, status: theirs.status }).toEqual({ route: route.operationId, status: 404 });
      expect(scrub(theirs, [ids.artifact, 'user:u-8'])).toEqual(scrub(missing, ['zz-nowhere', 'user:u-nowhere']));
      checked.push(route.operationId);
    }
    // Every subject and artifact route was tried (a route added later is tried too, from the same list).
    expect(checked).toEqual(expect.arrayContaining(['recall', 'asOf', 'replay', 'subjectEvents', 'listDeletionReceipts', 'verifyErasure']));
    expect(checked).toEqual(expect.arrayContaining(['getArtifact', 'lineage', 'assessArtifact', 'recordMemory', 'forgetSubject']));
    expect(checked.length).toBeGreaterThanOrEqual(25);
    expect(await t.eventCount()).toBe(before);
    // The same routes are there for a key that may: u-8's subject and artifact exist.
    expect((await t.request('GET', `/v1/artifacts/${ids.artifact}`, { key: admin })).status).toBe(200);
    expect((await t.request('GET', '/v1/subjects/user:u-8/receipts', { key: admin })).body.receipts).toHaveLength(1);
  });

  it('reaches its own subject and writes to its teams', async () => {
    const own = await t.request('GET', '/v1/subjects/user:u-7/recall', { key: u7 });
    expect(own.status).toBe(200);
    expect(own.text).toContain('u7 likes email');
    expect(
      (await t.request('POST', '/v1/subjects/team:t-9/memories', { key: u7, body: entry('t9 standup at ten', { key: 'meeting.standup' }) }))
        .status,
    ).toBe(201);
  });
});

describe('recall with shared namespaces', () => {
  it("includes the team's and the project's memories the key reads, each item naming its namespace; never the reverse", async () => {
    await record('team:t-1', 't1 deploys on fridays', { key: 'deploy.window' });
    await record('project:p-1', 'p1 is written in typescript', { key: 'project.language' });
    const projectReader = await t.key('acme', 'reader', ['user:u-7', 'team:t-1', 'project:p-1']);
    const answer = await t.request('POST', '/v1/subjects/user:u-7/recall', {
      key: projectReader,
      body: { shared: ['team:t-1', 'project:p-1'] },
    });
    expect(answer.status, answer.text).toBe(200);
    const texts = (answer.body.items as Array<{ namespace: string; text: string }>).map((i) => [i.namespace, i.text.split('] ')[1]]);
    expect(texts).toEqual(
      expect.arrayContaining([
        ['user:u-7', expect.stringContaining('u7 likes email')],
        ['team:t-1', expect.stringContaining('t1 deploys on fridays')],
        ['project:p-1', expect.stringContaining('p1 is written in typescript')],
      ]),
    );
    expect(answer.body.shared.map((s: { namespace: string }) => s.namespace)).toEqual(['team:t-1', 'project:p-1']);
    // GET takes them comma-separated.
    const get = await t.request('GET', '/v1/subjects/user:u-7/recall?shared=team:t-1,project:p-1', { key: projectReader });
    expect(get.body.items.map((i: { namespace: string }) => i.namespace).sort()).toEqual(texts.map(([ns]) => ns).sort());

    // The team's own recall holds only the team's memories: a private memory never shows there.
    const team = await t.request('GET', '/v1/subjects/team:t-1/recall', { key: projectReader });
    expect(team.text).toContain('t1 deploys on fridays');
    expect(team.text).not.toContain('u7 likes email');
  });

  it('answers a shared namespace the key may not read as a missing subject, and refuses a private one as shared (400)', async () => {
    const notAllowed = await t.request('POST', '/v1/subjects/user:u-7/recall', { key: u7, body: { shared: ['project:p-1'] } });
    const missing = await t.request('POST', '/v1/subjects/user:u-7/recall', { key: u7, body: { shared: ['project:p-nowhere'] } });
    expect(notAllowed.status).toBe(404);
    expect(problemOf(notAllowed)).toMatchObject({ code: 'subject_not_found', field: 'shared' });
    expect(scrub(notAllowed, ['project:p-1'])).toEqual(scrub(missing, ['project:p-nowhere']));
    const privateOne = await t.request('POST', '/v1/subjects/user:u-7/recall', { key: admin, body: { shared: ['user:u-8'] } });
    expect(privateOne.status).toBe(400);
    expect(problemOf(privateOne)).toMatchObject({ code: 'invalid_input', field: 'shared.0' });
    expect(privateOne.text).not.toContain('u8 likes sms');
  });
});

describe("seed 003's namespace failures", () => {
  it('same-name users in two tenants never see each other', async () => {
    await record('user:alice', 'acme alice likes tea');
    const globexAdmin = await t.key('globex', 'admin');
    await record('user:alice', 'globex alice likes coffee', {}, globexAdmin);
    const acmeAlice = await t.key('acme', 'reader', ['user:alice']);
    const globexAlice = await t.key('globex', 'reader', ['user:alice']);
    const a = await t.request('GET', '/v1/subjects/user:alice/recall', { key: acmeAlice });
    const g = await t.request('GET', '/v1/subjects/user:alice/recall', { key: globexAlice });
    expect([a.status, g.status]).toEqual([200, 200]);
    expect(a.text).toContain('acme alice likes tea');
    expect(a.text).not.toContain('globex alice');
    expect(g.text).toContain('globex alice likes coffee');
    expect(g.text).not.toContain('acme alice');
  });

  it('keeps team and project scopes: an entry scoped to a team and a project applies there only', async () => {
    await record('user:u-7', 'u7 reviews go to the t-1 channel', { key: 'review.channel', scopes: { team: 't-1', project: 'p-1' } });
    const there = await t.request('GET', '/v1/subjects/user:u-7/recall?scope.team=t-1&scope.project=p-1', { key: u7 });
    const item = there.body.items.find((i: { key?: string }) => i.key === 'review.channel');
    expect(item).toMatchObject({ scopes: { team: 't-1', project: 'p-1' } });
    const elsewhere = await t.request('GET', '/v1/subjects/user:u-7/recall?scope.team=t-2&scope.project=p-1', { key: u7 });
    expect(elsewhere.body.items.find((i: { key?: string }) => i.key === 'review.channel')).toBeUndefined();
    expect(elsewhere.body.excluded.out_of_scope).toBeGreaterThanOrEqual(1);
  });

  it('a deletion by source ref finds the records in shared namespaces too; a namespace-bound key may not run it', async () => {
    const ref = 'doc://handbook/leaked';
    const source = { type: 'user_assertion', refs: [ref] };
    await record('user:u-7', 'u7 handbook note', { key: 'handbook.note', source });
    await record('team:t-1', 't1 handbook note', { key: 'handbook.note', source });
    const bound = await t.request('DELETE', `/v1/memories?sourceRef=${encodeURIComponent(ref)}`, { key: u7 });
    expect(bound.status).toBe(403);
    const erased = await t.request('DELETE', `/v1/memories?sourceRef=${encodeURIComponent(ref)}`, { key: admin });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body.receipts.map((r: { subject: string }) => r.subject).sort()).toEqual(['team:t-1', 'user:u-7']);
    const team = await t.request('GET', '/v1/subjects/team:t-1/recall', { key: admin });
    expect(team.text).not.toContain('t1 handbook note');
  });
});

describe('test and production (seed 003: a test environment polluting the production profile)', () => {
  it('never lets a test key reach a production tenant, nor a production key a test one; re-marking a tenant shuts its other keys out', async () => {
    const store = new ApiKeyStore(t.database.url, { poolSize: 1 });
    try {
      const now = new Date();
      // A test key for production (unmarked) acme is refused, and none is made.
      const before = (await store.list({ tenant: 'acme' })).length;
      await expect(store.create({ tenant: 'acme', role: 'admin', environment: 'test', now })).rejects.toMatchObject({
        field: 'environment',
      });
      expect(await store.list({ tenant: 'acme' })).toHaveLength(before);
      await store.markTenant('acme-staging', 'test', now);
      await expect(store.create({ tenant: 'acme-staging', role: 'admin', environment: 'production', now })).rejects.toMatchObject({
        field: 'environment',
      });
      const testKey = (await store.create({ tenant: 'acme-staging', role: 'admin', channel: 'user', now })).key;
      expect(
        (await t.request('POST', '/v1/subjects/user:u-7/memories', { key: testKey, body: entry('staging u7 likes fax') })).status,
      ).toBe(201);
      // The production tenant's u-7 never sees it.
      expect((await t.request('GET', '/v1/subjects/user:u-7/recall', { key: admin })).text).not.toContain('staging u7');

      // acme-staging becomes production: its test key reaches nothing of it any more, reads or writes, and writes nothing.
      await store.markTenant('acme-staging', 'production', now);
      const events = await t.eventCount();
      const read = await t.request('GET', '/v1/subjects/user:u-7/recall', { key: testKey });
      expect(read.status).toBe(404);
      expect(problemOf(read)).toMatchObject({ code: 'subject_not_found', field: 'subject' });
      expect((await t.request('POST', '/v1/subjects/user:u-7/memories', { key: testKey, body: entry('staging again') })).status).toBe(404);
      expect((await t.request('GET', '/v1/policy', { key: testKey })).status).toBe(403);
      expect(await t.eventCount()).toBe(events);
    } finally {
      await store.close();
    }
  });
});

describe('memledger keys create --namespace (CLI)', () => {
  it('makes a key bound to its namespaces (repeatable); a bad pattern exits 2 naming namespace and makes no key', async () => {
    const cli = (args: string[]) => runCli(['keys', ...args], { ...t.env, NO_COLOR: '1' });
    const [made, bad] = await Promise.all([
      cli(['create', '--tenant', 'acme', '--role', 'reader', '--namespace', 'user:u-8', '--namespace', 'team:*']),
      cli(['create', '--tenant', 'initrode', '--role', 'reader', '--namespace', 'user:*', '--namespace', 'user u-8']),
    ]);
    expect(made.code, made.stderr).toBe(0);
    const key = JSON.parse(made.stdout);
    expect(key).toMatchObject({ tenant: 'acme', role: 'reader', namespaces: ['user:u-8', 'team:*'] });
    expect((await t.request('GET', '/v1/subjects/user:u-8/conflicts', { key: key.key })).status).toBe(200);
    expect((await t.request('GET', '/v1/subjects/user:u-7/conflicts', { key: key.key })).status).toBe(404);
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_input', field: 'namespace' });
    const listed = await cli(['list', '--tenant', 'initrode']);
    expect(JSON.parse(listed.stdout)).toEqual([]);
  }, 120_000);
});
