// Recall with a query over HTTP (issue 16): GET with query parameters and
// POST with the same fields as JSON answer alike; bad input is a 400 naming
// the field and reads nothing; the OpenAPI document lists the parameters;
// and through one long-lived service, a memory recalled by a query and then
// forgotten is gone from the next answer and from the service's index cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, problemOf, startTestService, type ApiResponse, type TestService } from './service.js';

let t: TestService;
let writer: string;
let reader: string;

beforeAll(async () => {
  t = await startTestService('api_recall_query', { config: { consolidationWorkers: 0 } });
  [writer, reader] = await Promise.all([t.key('acme', 'writer'), t.key('acme', 'reader')]);
});
afterAll(async () => {
  await t?.close();
});

const said = (content: string, key: string) =>
  entry(content, { kind: 'episodic', key, content, source: { type: 'user_assertion', refs: [`msg://${key}`] } });

async function record(subject: string, body: Record<string, unknown>): Promise<string> {
  const response = await t.request('POST', `/v1/subjects/${subject}/memories`, { key: writer, body });
  expect(response.status).toBe(201);
  return (response.body as { memoryId: string }).memoryId;
}

interface RecallBody {
  readonly retrieval: unknown;
  readonly items: ReadonlyArray<{ readonly memoryId?: string; readonly retrieval?: unknown; readonly provenance?: unknown }>;
}
interface OpenApi {
  readonly paths: Record<
    string,
    { get: { parameters: Array<{ name: string }> }; post: { requestBody: { content: Record<string, { schema: { properties: object } }> } } }
  >;
}
const answer = (response: ApiResponse) => response.body as RecallBody;
const idsOf = (response: ApiResponse) => answer(response).items.map((i) => i.memoryId);

describe('recall with a query over HTTP', () => {
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    ids.locker = await record('h1', said('Leave parcels in the blue locker by the gym.', 'chat.t1'));
    ids.tea = await record('h1', said('The user drinks green tea without sugar.', 'chat.t2'));
    ids.sms = await record('h1', entry('sms', { key: 'notification.preference' }));
  });

  it('GET and POST with the same fields give the same ranked, explained answer', async () => {
    // One `now` for both: freshness is judged at it.
    const now = new Date(Date.now() + 60_000).toISOString();
    const get = await t.request('GET', `/v1/subjects/h1/recall?query=${encodeURIComponent('where do parcels go?')}&topK=2&now=${now}`, {
      key: reader,
    });
    expect(get.status).toBe(200);
    expect(idsOf(get)[0]).toBe(ids.locker);
    expect(answer(get).items.length).toBeLessThanOrEqual(2);
    expect(answer(get).items[0]!.retrieval).toMatchObject({ rank: 1 });
    expect(answer(get).items[0]!.provenance).toMatchObject({ memoryId: ids.locker, version: 1 });
    const post = await t.request('POST', '/v1/subjects/h1/recall', { key: reader, body: { query: 'where do parcels go?', topK: 2, now } });
    expect(post.status).toBe(200);
    expect(answer(post).items).toEqual(answer(get).items);
    const keyed = await t.request('GET', '/v1/subjects/h1/recall?query=sms&key=notification.*&kind=profile&minScore=0', { key: reader });
    expect(idsOf(keyed)).toEqual([ids.sms]);
    const plain = await t.request('GET', '/v1/subjects/h1/recall', { key: reader });
    expect(answer(plain).retrieval).toBeNull();
    expect(answer(plain).items).toHaveLength(3);
  });

  it('answers bad input with a 400 naming the field, GET and POST alike', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['query=', { query: '' }, 'query'],
      [`query=${'x'.repeat(2048)}`, { query: 'x'.repeat(2048) }, 'query'],
      ['query=a&topK=0', { query: 'a', topK: 0 }, 'topK'],
      ['query=a&topK=201', { query: 'a', topK: 201 }, 'topK'],
      ['query=a&topK=many', { query: 'a', topK: 'many' }, 'topK'],
      ['query=a&kind=dream', { query: 'a', kind: 'dream' }, 'kind'],
      ['query=a&key=a..b', { query: 'a', key: 'a..b' }, 'key'],
      ['query=a&minScore=-2', { query: 'a', minScore: -2 }, 'minScore'],
      ['topK=3', { topK: 3 }, 'topK'],
    ];
    for (const [qs, body, field] of cases) {
      expect(problemOf(await t.request('GET', `/v1/subjects/h1/recall?${qs}`, { key: reader })), qs).toMatchObject({ status: 400, field });
      expect(problemOf(await t.request('POST', '/v1/subjects/h1/recall', { key: reader, body })), qs).toMatchObject({ status: 400, field });
    }
    const tenant = await t.request('POST', '/v1/subjects/h1/recall', { key: reader, body: { query: 'a', tenant: 'globex' } });
    expect(problemOf(tenant)).toMatchObject({ status: 400, field: 'tenant' });
  });

  it('lists the recall parameters in the OpenAPI document', async () => {
    const doc = (await t.request('GET', '/openapi.json')).body as OpenApi;
    const names = doc.paths['/v1/subjects/{subject}/recall']!.get.parameters.map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(['query', 'topK', 'key', 'kind', 'minScore', 'budget']));
    expect(doc.paths['/v1/subjects/{subject}/recall']!.post.requestBody.content['application/json']!.schema.properties).toHaveProperty(
      'query',
    );
  });

  it('recall with a query, forget, recall again: gone, from the answer and from the service index cache', async () => {
    const m = await record('h2', said('The side door code is 7731, use it after six.', 'chat.t1'));
    await record('h2', said('Deliveries after six go to the side door.', 'chat.t2'));
    const ask = () => t.request('GET', `/v1/subjects/h2/recall?query=${encodeURIComponent('side door code after six')}`, { key: reader });
    expect(idsOf(await ask())).toContain(m);
    const cache = t.service.retrievalIndexes;
    const holds = () => [...cache.indexes()].filter((c) => c.subject === 'h2' && c.index.documents.has(m)).length;
    expect(holds()).toBe(1);
    const receipt = await t.request('DELETE', `/v1/subjects/h2/memories/${m}`, { key: writer });
    expect(receipt.status).toBe(200);
    expect((receipt.body as { verification: { checks: unknown[] } }).verification.checks).toContainEqual(
      expect.objectContaining({ path: 'recall:retrieval_index_cache', status: 'passed' }),
    );
    expect(holds()).toBe(0);
    const after = await ask();
    expect(idsOf(after)).not.toContain(m);
    expect(after.text).not.toContain('7731');
  });
});
