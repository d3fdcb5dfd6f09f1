// The re-index door over HTTP (issue 16), against a stand-in embedding
// endpoint on a local port: a write over HTTP embeds its memory; one made
// while the endpoint failed is embedded by POST
// /v1/subjects/{s}/vectors:reindex (admin only), after which recall's
// semantic signal has it; the tenant-wide route walks every subject; bad
// input is a 400 naming the field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddingEnv, startModelServer, type ModelServer } from '../support/model-server.js';
import { entry, problemOf, startTestService, type TestService } from './service.js';

let model: ModelServer;
let t: TestService;
let admin: string;
let writer: string;

beforeAll(async () => {
  model = await startModelServer();
  t = await startTestService('api_reindex', { env: embeddingEnv(model, 'bag-of-words-16'), config: { consolidationWorkers: 0 } });
  [admin, writer] = await Promise.all([t.key('acme', 'admin'), t.key('acme', 'writer')]);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await model?.close();
});

const said = (content: string, key: string) =>
  entry(content, { kind: 'episodic', key, content, source: { type: 'user_assertion', refs: [`msg://${key}`] } });

async function record(subject: string, content: string, key: string): Promise<void> {
  expect((await t.request('POST', `/v1/subjects/${subject}/memories`, { key: writer, body: said(content, key) })).status).toBe(201);
}

describe('POST /v1/subjects/{s}/vectors:reindex and /v1/vectors:reindex', () => {
  it('embeds what a failing endpoint left without a vector; writes over HTTP embed their own', async () => {
    await record('r1', 'The courier comes on Tuesdays.', 'chat.t1');
    model.fault = 'http_500';
    await record('r1', 'The parcel locker code changed.', 'chat.t2');
    model.fault = 'none';

    const refused = await t.request('POST', '/v1/subjects/r1/vectors:reindex', { key: writer });
    expect(refused.status).toBe(403);
    const done = await t.request('POST', '/v1/subjects/r1/vectors:reindex', { key: admin });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      tenant: 'acme',
      model: 'bag-of-words-16',
      subjects: [{ subject: 'r1', embedded: 1, failed: 0, upToDate: 1 }],
      totals: { embedded: 1, upToDate: 1 },
    });
    const again = await t.request('POST', '/v1/subjects/r1/vectors:reindex', { key: admin });
    expect(again.body).toMatchObject({ totals: { embedded: 0, upToDate: 2 } });

    const recalled = await t.request('GET', `/v1/subjects/r1/recall?query=${encodeURIComponent('parcel locker')}`, { key: admin });
    expect(recalled.body).toMatchObject({ retrieval: { semantic: { status: 'ready', model: 'bag-of-words-16', vectors: 2 } } });
  });

  it('walks every subject of the key tenant, and names a bad subject', async () => {
    await record('r2', 'Invoices are paid by transfer.', 'chat.t1');
    const all = await t.request('POST', '/v1/vectors:reindex', { key: admin });
    expect(all.status).toBe(200);
    const body = all.body as { subjects: Array<{ subject: string }> };
    expect(body.subjects.map((s) => s.subject)).toEqual(expect.arrayContaining(['r1', 'r2']));
    const bad = await t.request('POST', '/v1/subjects/%20bad%20/vectors:reindex', { key: admin });
    expect(bad.status).toBe(400);
    expect(problemOf(bad)).toMatchObject({ code: 'invalid_input', field: 'subject' });
  });
});
