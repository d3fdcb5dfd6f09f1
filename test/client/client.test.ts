// memledger/client against a real service (issue 21): every call it makes is
// a route's, its values are the routes' answers, and the API's errors come
// back as problems discriminated by code, never thrown.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type ApiResult, type EntryInput, type MemledgerClient } from '../../src/client/index.js';
import { startTestService, type TestService } from '../api/service.js';

let t: TestService;
let writer: MemledgerClient;
let auditor: MemledgerClient;

beforeAll(async () => {
  t = await startTestService('client', { config: { consolidationWorkers: 0 } });
  writer = createClient({ baseUrl: `${t.url}/`, apiKey: await t.key('acme', 'writer') });
  auditor = createClient({ baseUrl: t.url, apiKey: await t.key('acme', 'auditor') });
});
afterAll(async () => {
  await t?.close();
});

function valueOf<T>(result: ApiResult<T>): T {
  if (!result.ok) throw new Error(`${result.status} ${result.problem.code}: ${result.problem.detail}`);
  return result.value;
}

const parcels: EntryInput = {
  kind: 'episodic',
  key: 'delivery.instructions',
  value: { type: 'text', text: 'blue locker' },
  content: 'Leave parcels in the blue locker by the gym.',
  source: { type: 'user_assertion', refs: ['msg://t1'] },
  scopes: { project: 'shop-a' },
};

describe('memledger/client', () => {
  it('records, recalls (POST and GET with the same options), lists conflicts, reads as-of and forgets', async () => {
    const recorded = valueOf(await writer.record('u1', parcels, { idempotencyKey: 'first' }));
    expect(recorded).toMatchObject({ decision: 'NEW', replayed: false });
    expect(valueOf(await writer.record('u1', parcels, { idempotencyKey: 'first' }))).toMatchObject({ replayed: true });

    // One `now` for both: freshness is judged at it.
    const options = {
      query: 'where do parcels go?',
      topK: 3,
      scopes: { project: 'shop-a' },
      now: new Date(Date.now() + 60_000).toISOString(),
    };
    const post = valueOf(await writer.recall('u1', options));
    const get = valueOf(await writer.recall('u1', options, { method: 'GET' }));
    expect(post.items.map((i) => (i.type === 'memory' ? i.memoryId : i.type))).toEqual([recorded.memoryId]);
    expect(get.items).toEqual(post.items);
    // The scope is a hard filter, and GET sends it as scope.project.
    expect(valueOf(await writer.recall('u1', { ...options, scopes: { project: 'shop-b' } }, { method: 'GET' })).items).toEqual([]);

    expect(valueOf(await writer.conflicts('u1'))).toEqual([]);
    const beliefs = valueOf(await auditor.asOf('u1', { systemTime: new Date().toISOString() }));
    expect(beliefs.beliefs.map((b) => b.memoryId)).toEqual([recorded.memoryId]);

    const receipt = valueOf(await writer.forget('u1', recorded.memoryId, { reason: 'user asked' }));
    expect(receipt).toMatchObject({ scope: 'memory', memoryIds: [recorded.memoryId], verification: { status: 'passed' } });
    expect(valueOf(await writer.recall('u1', options)).items).toEqual([]);
    expect(valueOf(await auditor.receipts('u1')).receipts.map((r) => r.receiptId)).toEqual([receipt.receiptId]);
  });

  it('gives feedback on what a recall served (400 naming the field, nothing appended, when it did not), and an auditor reads the recall back', async () => {
    const recorded = valueOf(await writer.record('u3', { ...parcels, scopes: {} }));
    const other = valueOf(await writer.record('u3', { ...parcels, key: 'drink', content: 'Green tea, no sugar.', scopes: {} }));
    const answer = valueOf(await writer.recall('u3', { query: 'where do parcels go?', topK: 1 }));
    expect(answer.recallId).toMatch(/^r-/);
    for (const [body, field] of [
      [{ recallId: 'r-unknown', memoryId: recorded.memoryId, type: 'used' }, 'recallId'],
      [{ recallId: answer.recallId, memoryId: other.memoryId, type: 'used' }, 'memoryId'],
      [{ recallId: answer.recallId, memoryId: recorded.memoryId, type: 'meh' }, 'type'],
    ] as const) {
      const refused = await writer.feedback('u3', body as never);
      expect(!refused.ok && refused.problem, JSON.stringify(body)).toMatchObject({ status: 400, code: 'invalid_input', field });
    }
    const given = valueOf(await writer.feedback('u3', { recallId: answer.recallId, memoryId: recorded.memoryId, type: 'harmful' }));
    // The refusals appended nothing: the feedback is the subject's third event.
    expect(given).toMatchObject({ revision: 2, events: [{ type: 'MemoryFeedbackGiven', data: { review: 'opened' } }] });
    const next = valueOf(await writer.recall('u3', { query: 'where do parcels go?' }));
    expect(next.items.map((i) => (i.type === 'memory' ? i.memoryId : i.type))).not.toContain(recorded.memoryId);
    expect(next.excluded.under_review).toBe(1);

    const audit = valueOf(await auditor.recallRecord('u3', answer.recallId));
    expect(audit.items).toMatchObject([{ position: 1, memories: [{ memoryId: recorded.memoryId, version: 1 }] }]);
    expect(audit.parameters.query).toEqual({ state: 'readable', text: 'where do parcels go?' });
    expect(!(await writer.recallRecord('u3', answer.recallId)).ok).toBe(true);

    // /metrics counts the loop from the log: memories served, feedback by type, the ratios over what was served.
    const metric = (text: string, name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    let text = '';
    for (let i = 0; i < 100 && !/memledger_feedback_total\{type="harmful",source="user"\} 1/.test(text); i++) {
      text = (await t.request('GET', '/metrics')).text;
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(text).toMatch(/memledger_feedback_total\{type="harmful",source="user"\} 1/);
    expect(metric(text, 'memledger_recall_served_total')).toBeGreaterThan(0);
    expect(metric(text, 'memledger_retrieval_hit_ratio')).toBe(0);
    expect(text).toMatch(/^memledger_erasure_verified_seconds_count \d+$/m);
  });

  it('answers the API errors as typed problems', async () => {
    const bad = await writer.record('u2', { ...parcels, kind: 'dream' as 'episodic' });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.status).toBe(400);
    expect(bad.problem).toMatchObject({ code: 'invalid_input', field: 'kind' });

    const missing = await writer.recall('nobody', { query: 'anything' });
    expect(!missing.ok && missing.problem.code).toBe('subject_not_found');

    const forbidden = await createClient({ baseUrl: t.url, apiKey: await t.key('acme', 'reader') }).record('u2', parcels);
    expect(!forbidden.ok && forbidden.problem).toMatchObject({ code: 'forbidden', status: 403 });
    const stranger = await createClient({ baseUrl: t.url, apiKey: 'not-a-key' }).conflicts('u2');
    expect(!stranger.ok && stranger.problem).toMatchObject({ code: 'unauthenticated', status: 401 });
  });
});
