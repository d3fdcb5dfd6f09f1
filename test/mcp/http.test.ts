// MCP over Streamable HTTP at /mcp on the service (issue 21), driven by the
// SDK's own client: the tenant comes from the API key, so one tenant's key
// cannot see (or write into) another tenant's memory; the key's role bounds
// the tools; a missing key is the API's 401 problem; a bad input writes
// nothing.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, problemOf, startTestService, type TestService } from '../api/service.js';

let t: TestService;
const clients: Client[] = [];

beforeAll(async () => {
  t = await startTestService('mcp_http', { config: { consolidationWorkers: 0 } });
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await t?.close();
});

interface ToolBody {
  readonly [field: string]: unknown;
  readonly memoryId?: string;
  readonly items: ReadonlyArray<{ readonly memoryId?: string }>;
}

async function connect(key: string) {
  const client = new Client({ name: 'memledger-http-test', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }),
  );
  clients.push(client);
  return async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    return { isError: result.isError === true, body: result.structuredContent as ToolBody };
  };
}

const said = (content: string, key: string) => entry(content, { kind: 'episodic', key, content });

describe('MCP over Streamable HTTP', () => {
  it("answers for the key's tenant only", async () => {
    const acme = await connect(await t.key('acme', 'writer'));
    const globex = await connect(await t.key('globex', 'writer'));

    const mine = await acme('remember', { subject: 'u1', entry: said('The side door code is 4711 after six.', 'door.code') });
    expect(mine.body).toMatchObject({ decision: 'NEW' });
    const found = await acme('recall', { subject: 'u1', query: 'what is the door code?' });
    expect(found.body.items.map((i) => i.memoryId)).toContain(mine.body.memoryId);

    // Another tenant's subject of the same name does not exist for globex: the same answer as none at all.
    const peek = await globex('recall', { subject: 'u1', query: 'what is the door code?' });
    expect(peek).toMatchObject({ isError: true, body: { error: 'subject_not_found', field: 'subject' } });
    const theirs = await globex('remember', { subject: 'u1', entry: said('The door code is 0000.', 'door.code') });
    expect(theirs.body).toMatchObject({ decision: 'NEW' });
    const own = await globex('recall', { subject: 'u1', query: 'what is the door code?' });
    expect(JSON.stringify(own.body)).not.toContain('4711');
    expect(own.body.items.map((i) => i.memoryId)).toEqual([theirs.body.memoryId]);
    expect(JSON.stringify((await acme('recall', { subject: 'u1', query: 'door code' })).body)).not.toContain('0000');
  });

  it('remembers, recalls by a question, takes feedback on what it served, forgets, and recalls nothing', async () => {
    const agent = await connect(await t.key('acme', 'writer'));
    const kept = await agent('remember', { subject: 'u3', entry: said('Parcels go to the blue locker by the gym.', 'delivery.where') });
    expect(kept.body).toMatchObject({ decision: 'NEW' });
    const memoryId = kept.body.memoryId!;
    const found = await agent('recall', { subject: 'u3', query: 'where should parcels go?' });
    expect(found.body.items.map((i) => i.memoryId)).toEqual([memoryId]);
    const recallId = found.body.recallId as string;
    expect(recallId).toMatch(/^r-/);
    const before = await t.eventCount();
    const unserved = await agent('feedback', { subject: 'u3', recallId, memoryId: 'm-never-served', type: 'used' });
    expect(unserved).toMatchObject({ isError: true, body: { error: 'invalid_input', field: 'memoryId' } });
    expect(await t.eventCount()).toBe(before);
    const used = await agent('feedback', { subject: 'u3', recallId, memoryId, type: 'used' });
    expect(used.isError, JSON.stringify(used.body)).toBe(false);
    expect(used.body).toMatchObject({ events: [{ type: 'MemoryFeedbackGiven', data: { memoryId, recallId, type: 'used' } }] });
    const forgotten = await agent('forget', { subject: 'u3', memoryId });
    expect(forgotten.body).toMatchObject({ scope: 'memory', memoryIds: [memoryId], verification: { status: 'passed' } });
    const after = await agent('recall', { subject: 'u3', query: 'where should parcels go?' });
    expect(after.body.items).toEqual([]);
    expect(JSON.stringify(after.body)).not.toContain('blue locker');
  });

  it("keeps to the key's role, and a bad input writes nothing", async () => {
    const reader = await connect(await t.key('acme', 'reader'));
    const before = await t.eventCount();
    const refused = await reader('remember', { subject: 'u2', entry: said('Anything.', 'note.one') });
    expect(refused).toMatchObject({ isError: true, body: { error: 'forbidden', field: 'Authorization' } });
    const writer = await connect(await t.key('acme', 'writer'));
    const bad = await writer('remember', { subject: 'u2', entry: { ...said('Anything.', 'note.one'), confidence: 2 } });
    expect(bad).toMatchObject({ isError: true, body: { error: 'invalid_input', field: 'entry.confidence' } });
    expect(await t.eventCount()).toBe(before);
  });

  it("keeps to the key's namespaces (another user's subject answers as a missing one) and to its channel's source types", async () => {
    const admin = await connect(await t.key('acme', 'admin'));
    expect((await admin('remember', { subject: 'user:u-8', entry: said('u8 parks on level two.', 'parking.level') })).isError).toBe(false);
    await admin('remember', { subject: 'team:t-1', entry: said('t1 parks on level one.', 'parking.level') });
    const u7 = await connect(await t.key('acme', 'writer', ['user:u-7', 'team:*']));
    const before = await t.eventCount();
    for (const [tool, args] of [
      ['recall', { subject: 'user:u-8', query: 'parking' }],
      ['list_conflicts', { subject: 'user:u-8' }],
      ['remember', { subject: 'user:u-8', entry: said('Anything.', 'note.one') }],
      ['recall', { subject: 'user:u-7', query: 'parking', shared: ['project:p-1'] }],
    ] as const) {
      const answer = await u7(tool, args);
      expect({ tool, answer }).toMatchObject({ tool, answer: { isError: true, body: { error: 'subject_not_found' } } });
      expect(JSON.stringify(answer.body)).not.toContain('level two');
    }
    expect(await t.eventCount()).toBe(before);
    await u7('remember', { subject: 'user:u-7', entry: said('u7 parks outside.', 'parking.level') });
    const shared = await u7('recall', { subject: 'user:u-7', query: 'parks', shared: ['team:t-1'] });
    expect(shared.isError, JSON.stringify(shared.body)).toBe(false);
    expect(shared.body.items.map((i) => (i as { namespace?: string }).namespace).sort()).toEqual(['team:t-1', 'user:u-7']);
    // A key not made for the user's channel may not speak as the user here either.
    const service = await connect(await t.key('acme', 'writer', undefined, 'service'));
    const claim = await service('remember', { subject: 'user:u-7', entry: said('u7 parks anywhere.', 'parking.any') });
    expect(claim).toMatchObject({ isError: true, body: { error: 'source_type_above_credential', field: 'source.type' } });
  });

  it('refuses a request without a key as the API does (401 problem)', async () => {
    const response = await t.request('POST', '/mcp', { body: { jsonrpc: '2.0', id: 1, method: 'tools/list' } });
    expect(response.status).toBe(401);
    expect(problemOf(response).code).toBe('unauthenticated');
    expect(problemOf(await t.request('GET', '/mcp', { key: await t.key('acme', 'reader') }))).toMatchObject({ status: 405 });
  });
});
