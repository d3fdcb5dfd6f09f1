// Promotion over HTTP (issue 19 item 3): the key must reach the source (the
// path) and the target (`to`: out of reach it is a missing subject, 404
// naming `to`, nothing appended); a promotion is a 202 candidate, absent from
// the team's recall until a reviewer key accepts it on the team's candidates
// route; then the team's recall serves it with promotedFrom. A service
// writer's write into a team namespace is a 202 candidate too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, problemOf, startTestService, type TestService } from './service.js';

let t: TestService;
let u7: string;
let reviewer: string;
beforeAll(async () => {
  t = await startTestService('api_promotion');
  u7 = await t.key('acme', 'admin', ['user:u-7', 'team:*']);
  reviewer = await t.key('acme', 'reviewer', ['team:*']);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const teamRecall = async () =>
  (await t.request('GET', '/v1/subjects/team:t-5/recall', { key: reviewer })).body.items as Array<Record<string, unknown>>;

describe('POST /v1/subjects/{subject}/memories/{memoryId}/promotions', () => {
  it('refuses a target the key may not reach or that is not shared, then proposes, and a reviewer approves', async () => {
    const recorded = await t.request('POST', '/v1/subjects/user:u-7/memories', { key: u7, body: entry('u7 prefers async standups') });
    expect(recorded.status, recorded.text).toBe(201);
    const memoryId = recorded.body.memoryId as string;
    const path = `/v1/subjects/user:u-7/memories/${memoryId}/promotions`;
    const events = await t.eventCount();
    const outOfReach = await t.request('POST', path, { key: u7, body: { to: 'project:p-1', reason: 'share' } });
    expect(outOfReach.status).toBe(404);
    expect(problemOf(outOfReach)).toMatchObject({ code: 'subject_not_found', field: 'to' });
    const notShared = await t.request('POST', path, { key: u7, body: { to: 'user:u-8', reason: 'share' } });
    expect(notShared.status).toBe(400);
    expect(problemOf(notShared).field).toMatch(/to$/);
    expect(await t.eventCount()).toBe(events);

    const promoted = await t.request('POST', path, { key: u7, body: { to: 'team:t-5', reason: 'team norm' } });
    expect(promoted.status, promoted.text).toBe(202);
    expect(promoted.body).toMatchObject({ decision: 'CANDIDATE', from: { subject: 'user:u-7', memoryId } });
    expect(JSON.stringify(await teamRecall())).not.toContain('async standups');

    const accepted = await t.request('POST', `/v1/subjects/team:t-5/candidates/${promoted.body.memoryId}/accept`, { key: reviewer });
    expect(accepted.status, accepted.text).toBe(201);
    const item = (await teamRecall()).find((i) => i.memoryId === promoted.body.memoryId);
    expect(item).toMatchObject({ provenance: { promotedFrom: { subject: 'user:u-7', memoryId } } });
  });

  it("holds a service writer's write into a team namespace as a candidate", async () => {
    const writer = await t.key('acme', 'writer', ['team:*'], 'service');
    const held = await t.request('POST', '/v1/subjects/team:t-5/memories', {
      key: writer,
      body: entry('t5 uses trunk based development', { key: 'vcs.flow', source: { type: 'verified_tool_fact', refs: ['tool://git/1'] } }),
    });
    expect(held.status, held.text).toBe(202);
    expect(held.body).toMatchObject({ decision: 'CANDIDATE', gate: { ruleId: 'agent-into-shared-namespace' } });
  });
});
