// The lifecycle's HTTP doors (issue 18 item 3): the policy (GET: auditor;
// POST: admin), a sweep by hand at a given instant (admin), restore
// (reviewer), recall's includeDemoted (GET query string and POST body); bad
// input is 400 naming the field, with nothing appended.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, problemOf, startTestService, type ApiResponse, type TestService } from '../api/service.js';

let t: TestService;
let writer: string;
let auditor: string;
let reviewer: string;
let admin: string;

beforeAll(async () => {
  // No sweeper of its own: this test sweeps by hand.
  t = await startTestService('lifecycle_http', { config: { lifecycleSweepMs: 0 } });
  [writer, auditor, reviewer, admin] = await Promise.all([
    t.key('acme', 'writer'),
    t.key('acme', 'auditor'),
    t.key('acme', 'reviewer'),
    t.key('acme', 'admin'),
  ]);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

/** The answers this test reads, typed (the service helper's body is untyped). */
interface Recalled {
  readonly items: ReadonlyArray<{ readonly memoryId?: string }>;
  readonly excluded: Readonly<Record<string, number>>;
}
const recalled = (r: ApiResponse) => r.body as Recalled;

const later = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

describe('the lifecycle over HTTP', () => {
  it('refuses a bad policy or sweep naming the field, and appends nothing', async () => {
    const before = await t.eventCount();
    const policy = await t.request('POST', '/v1/lifecycle/policy', { key: admin, body: { capacity: { episodic: -1 } } });
    expect(policy.status).toBe(400);
    expect(problemOf(policy)).toMatchObject({ code: 'invalid_input', field: 'capacity.episodic' });
    const sweep = await t.request('POST', '/v1/lifecycle/sweep', { key: admin, body: { at: 'tomorrow' } });
    expect(sweep.status).toBe(400);
    expect(problemOf(sweep)).toMatchObject({ code: 'invalid_input', field: 'at' });
    const recall = await t.request('GET', '/v1/subjects/u-1/recall?includeDemoted=maybe', { key: writer });
    expect(recall.status).toBe(400);
    expect(problemOf(recall)).toMatchObject({ field: 'includeDemoted' });
    expect(await t.eventCount()).toBe(before);
    expect((await t.request('POST', '/v1/lifecycle/policy', { key: writer, body: {} })).status).toBe(403);
    const shown = await t.request('GET', '/v1/lifecycle/policy', { key: auditor });
    expect(shown.body).toMatchObject({ tenant: 'acme', version: 0, builtIn: true, policy: { capacity: { episodic: 1000 } } });
  });

  it('sets the policy, sweeps at an instant, serves demoted memories only when asked, and restores', async () => {
    const set = await t.request('POST', '/v1/lifecycle/policy', {
      key: admin,
      body: { demotion: { unreinforcedFor: { profile: 'P10D' } } },
    });
    expect(set.status, set.text).toBe(200);
    expect(set.body).toMatchObject({ version: 1, policy: { demotion: { unreinforcedFor: { profile: 'P10D' } } } });
    const recorded = await t.request('POST', '/v1/subjects/u-2/memories', { key: writer, body: entry('email') });
    expect(recorded.status, recorded.text).toBe(201);
    const memoryId = (recorded.body as { memoryId: string }).memoryId;
    const swept = await t.request('POST', '/v1/lifecycle/sweep', { key: admin, body: { subject: 'u-2', at: later(11) } });
    expect(swept.status, swept.text).toBe(200);
    expect(swept.body).toEqual({
      subjects: [
        {
          tenant: 'acme',
          subject: 'u-2',
          policyVersion: 1,
          demoted: [{ memoryId, reason: 'unreinforced', rule: 'demotion.unreinforcedFor.profile' }],
          archived: [],
        },
      ],
    });
    const hidden = await t.request('GET', '/v1/subjects/u-2/recall', { key: writer });
    expect(recalled(hidden).items).toEqual([]);
    expect(recalled(hidden).excluded.demoted).toBe(1);
    const shown = await t.request('GET', '/v1/subjects/u-2/recall?includeDemoted=true', { key: writer });
    expect(recalled(shown).items.map((i) => i.memoryId)).toEqual([memoryId]);
    const posted = await t.request('POST', '/v1/subjects/u-2/recall', { key: writer, body: { includeDemoted: true } });
    expect(recalled(posted).items).toHaveLength(1);

    expect((await t.request('POST', `/v1/subjects/u-2/memories/${memoryId}/restore`, { key: writer, body: {} })).status).toBe(403);
    const restored = await t.request('POST', `/v1/subjects/u-2/memories/${memoryId}/restore`, {
      key: reviewer,
      body: { note: 'still true' },
    });
    expect(restored.status, restored.text).toBe(200);
    expect(restored.body).toMatchObject({
      events: [{ type: 'MemoryRestored', data: { memoryId, reason: 'restored', note: 'still true' } }],
    });
    const again = await t.request('POST', `/v1/subjects/u-2/memories/${memoryId}/restore`, { key: reviewer, body: {} });
    expect(again.status).toBe(409);
    expect(problemOf(again)).toMatchObject({ code: 'memory_not_demoted' });
    const back = await t.request('GET', '/v1/subjects/u-2/recall', { key: writer });
    expect(recalled(back).items).toHaveLength(1);
  });
});
