// Consolidation and the read side over HTTP: prepare, publish, run, approve
// (shadow mode), an artifact's standing, recall (summary vs raw), as-of ==
// replay, the STALE set and lineage (graph and PROV-JSON).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, problemOf, startTestService, type TestService } from './service.js';

let t: TestService;
let writer: string;
let reader: string;
let auditor: string;

beforeAll(async () => {
  // No worker: these tests decide when a subject is consolidated (a worker would republish after a retraction).
  t = await startTestService('api_consolidation', { env: { MEMLEDGER_SHADOW_TENANTS: 'shadowco' }, config: { consolidationWorkers: 0 } });
  [writer, reader, auditor] = await Promise.all([t.key('acme', 'writer'), t.key('acme', 'reader'), t.key('acme', 'auditor')]);
});
afterAll(async () => {
  await t?.close();
});

const facts = [
  entry('sms', { key: 'notification.preference' }),
  entry('never phone me', {
    key: 'contact.phone_calls',
    kind: 'constraint',
    value: { type: 'boolean', value: false },
    polarity: 'negated',
  }),
  entry('72h', { key: 'refund.threshold', kind: 'procedural', value: { type: 'number', amount: '72', unit: 'h' } }),
];

async function seed(subject: string, key = writer): Promise<string[]> {
  const ids: string[] = [];
  for (const fact of facts) {
    const response = await t.request('POST', `/v1/subjects/${subject}/memories`, { key, body: fact });
    expect(response.status).toBe(201);
    ids.push(response.body.memoryId);
  }
  return ids;
}

describe('consolidation', () => {
  it('prepares an artifact (not readable), publishes it, then finds the subject up to date', async () => {
    await seed('c1');
    const prepared = await t.request('POST', '/v1/subjects/c1/consolidations', { key: writer, body: { mode: 'prepare' } });
    expect(prepared.status).toBe(201);
    expect(prepared.body).toMatchObject({ status: 'gate_passed', subject: 'c1', fences: { highWaterMark: 3 } });
    const artifactId = prepared.body.artifactId as string;

    const before = await t.request('GET', `/v1/artifacts/${artifactId}`, { key: reader });
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      artifactId,
      subject: 'c1',
      status: 'gate_passed',
      current: false,
      stale: false,
      inputs: 3,
      gate: { passed: true },
    });
    expect(before.text).not.toContain('sms');
    expect((await t.request('GET', '/v1/subjects/c1/recall', { key: reader })).body).toMatchObject({ source: 'raw', reason: 'no_alias' });

    const published = await t.request('POST', `/v1/artifacts/${artifactId}/publish`, { key: writer });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ status: 'switched', artifactId, alias: { artifactId, coversThrough: 3 } });
    expect((await t.request('GET', `/v1/artifacts/${artifactId}`, { key: reader })).body.current).toBe(true);
    const assessment = await t.request('GET', `/v1/artifacts/${artifactId}/assessment?subject=c1`, { key: reader });
    expect(assessment.status).toBe(200);
    expect(assessment.body).toMatchObject({ artifactId, status: 'ready', findings: [] });
    const otherSubject = await t.request('GET', `/v1/artifacts/${artifactId}/assessment?subject=c2`, { key: reader });
    expect(otherSubject.body.status).toBe('blocked');

    const again = await t.request('POST', '/v1/subjects/c1/consolidations', { key: writer, body: {} });
    expect(again.status).toBe(200);
    expect(again.body.status).toBe('up_to_date');
    // A phase boundary makes a record of its own; its run is checked by the assessment.
    const phase = await t.request('POST', '/v1/subjects/c1/consolidations', { key: writer, body: { reason: 'phase', runId: 'run-7' } });
    expect(phase.body).toMatchObject({ status: 'switched', prepare: { trigger: 'phase' } });
    const phased = phase.body.prepare.artifactId as string;
    const wrongRun = await t.request('GET', `/v1/artifacts/${phased}/assessment?runId=run-8`, { key: reader });
    expect(wrongRun.body).toMatchObject({ status: 'blocked', findings: [{ code: 'run_mismatch' }] });
    const badReason = await t.request('POST', '/v1/subjects/c1/consolidations', { key: writer, body: { reason: 'lunch' } });
    expect(badReason.status).toBe(400);

    const recalled = await t.request('GET', '/v1/subjects/c1/recall?budget=2000', { key: reader });
    expect(recalled.status).toBe(200);
    expect(recalled.body).toMatchObject({ source: 'summary', reason: 'summary_current', alias: { artifactId: phased } });
    // Again, nothing changed: the same items (kept, and written from their kept JSON), recorded anew, as JSON.
    const warm = await t.request('GET', '/v1/subjects/c1/recall?budget=2000', { key: reader });
    expect(warm.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(warm.body.items).toEqual(recalled.body.items);
    expect(warm.body.items.map((item: { priority: number }) => item.priority)).toEqual(
      recalled.body.items.map((_: unknown, i: number) => i + 1),
    );
    expect(warm.body.recallId).not.toBe(recalled.body.recallId);
  });

  it('refuses a switch whose input was retracted after the gate (409 with the result), falls back to raw, recovers with run', async () => {
    const [pref] = await seed('c2');
    const prepared = await t.request('POST', '/v1/subjects/c2/consolidations', { key: writer, body: { mode: 'prepare' } });
    const artifactId = prepared.body.artifactId as string;
    expect((await t.request('POST', `/v1/subjects/c2/memories/${pref}/retract`, { key: writer, body: { reason: 'wrong' } })).status).toBe(
      200,
    );
    const refused = await t.request('POST', `/v1/artifacts/${artifactId}/publish`, { key: writer });
    expect(refused.status).toBe(409);
    const problem = problemOf(refused) as unknown as { code: string; artifactId: string; result: { status: string } };
    expect(['epoch_changed', 'input_not_active']).toContain(problem.code);
    expect(problem).toMatchObject({ artifactId, result: { status: 'rejected' } });
    expect((await t.request('GET', `/v1/artifacts/${artifactId}`, { key: reader })).body).toMatchObject({
      status: 'rejected',
      current: false,
      stale: true,
    });
    expect((await t.request('GET', `/v1/artifacts/${artifactId}/assessment`, { key: reader })).body.status).toBe('needs_rehydration');

    const run = await t.request('POST', '/v1/subjects/c2/consolidations', { key: writer });
    expect(run.status).toBe(201);
    expect(run.body).toMatchObject({ status: 'switched' });
    const recalled = await t.request('GET', '/v1/subjects/c2/recall', { key: reader });
    expect(recalled.body.source).toBe('summary');
    expect(JSON.stringify(recalled.body.items)).not.toContain(pref);
  });

  it('in shadow mode, waits for approval (202); only an admin approves (403 for a writer)', async () => {
    const shadowWriter = await t.key('shadowco', 'writer');
    await seed('sh1', shadowWriter);
    const run = await t.request('POST', '/v1/subjects/sh1/consolidations', { key: shadowWriter, body: { mode: 'run' } });
    expect(run.status).toBe(202);
    const artifactId = run.body.prepare.artifactId as string;
    expect(run.body.publish).toEqual({ status: 'awaiting_approval', artifactId });
    expect((await t.request('POST', `/v1/artifacts/${artifactId}/approve`, { key: shadowWriter })).status).toBe(403);
    const approved = await t.request('POST', `/v1/artifacts/${artifactId}/approve`, { key: await t.key('shadowco', 'admin') });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ status: 'switched', artifactId });
  });

  it('answers 404 for a subject with no events, and 400 naming the field for a bad body', async () => {
    const missing = await t.request('POST', '/v1/subjects/nothing-here/consolidations', { key: writer, body: {} });
    expect(missing.status).toBe(404);
    expect(problemOf(missing)).toMatchObject({ code: 'subject_not_found', field: 'subject' });
    const bad = await t.request('POST', '/v1/subjects/c1/consolidations', { key: writer, body: { mode: 'later' } });
    expect(bad.status).toBe(400);
    expect(problemOf(bad).field).toBe('mode');
  });
});

describe('audit reads', () => {
  it('as-of (memory_versions) and replay (the stream) agree, before and after a supersession', async () => {
    const [pref] = await seed('a1');
    const between = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(
      (
        await t.request('POST', `/v1/subjects/a1/memories/${pref}/supersede`, {
          key: writer,
          body: entry('email', { key: 'notification.preference' }),
        })
      ).status,
    ).toBe(201);
    for (const at of [between, new Date().toISOString()]) {
      const asOf = await t.request('GET', `/v1/subjects/a1/as-of?systemTime=${encodeURIComponent(at)}`, { key: auditor });
      const replay = await t.request('GET', `/v1/subjects/a1/replay?at=${encodeURIComponent(at)}`, { key: auditor });
      expect(asOf.status).toBe(200);
      expect(replay.status).toBe(200);
      expect(asOf.body.from).toBe('memory_versions');
      expect(replay.body.from).toBe('event_stream');
      expect(asOf.body.beliefs).toEqual(replay.body.beliefs);
      expect(asOf.body.beliefs).toHaveLength(3);
    }
    const bad = await t.request('GET', '/v1/subjects/a1/as-of?systemTime=yesterday', { key: auditor });
    expect(bad.status).toBe(400);
    expect(problemOf(bad).field).toBe('systemTime');
    const missing = await t.request('GET', '/v1/subjects/a1/replay', { key: auditor });
    expect(problemOf(missing).field).toBe('at');
  });

  it('lists the STALE set and exports lineage as a graph and as PROV-JSON', async () => {
    const [pref] = await seed('a2');
    const run = await t.request('POST', '/v1/subjects/a2/consolidations', { key: writer });
    const artifactId = run.body.prepare.artifactId as string;
    await t.request('POST', `/v1/subjects/a2/memories/${pref}/retract`, { key: writer, body: { reason: 'wrong' } });
    const stale = await t.request('GET', '/v1/subjects/a2/stale', { key: auditor });
    expect(stale.status).toBe(200);
    expect(stale.body).toMatchObject({
      alias: { artifactId, stale: true },
      stale: [{ artifactId, causeType: 'MemoryRetracted', causeMemoryId: pref }],
    });
    expect((await t.request('GET', '/v1/subjects/a2/recall', { key: reader })).body).toMatchObject({ source: 'raw' });

    const graph = await t.request('GET', `/v1/artifacts/${artifactId}/lineage`, { key: auditor });
    expect(graph.status).toBe(200);
    expect(graph.body).toMatchObject({ artifactId, stale: true });
    expect(graph.body.artifacts[0].inputs.map((i: { memoryId: string }) => i.memoryId)).toContain(pref);
    const prov = await t.request('GET', `/v1/artifacts/${artifactId}/lineage?format=prov-json`, { key: auditor });
    expect(prov.status).toBe(200);
    expect(Object.keys(prov.body)).toEqual(expect.arrayContaining(['prefix', 'entity', 'activity', 'wasDerivedFrom', 'wasInvalidatedBy']));
    expect(Object.keys(prov.body.entity)).toContain(`ml:artifact/${artifactId}`);
    const badFormat = await t.request('GET', `/v1/artifacts/${artifactId}/lineage?format=xml`, { key: auditor });
    expect(problemOf(badFormat)).toMatchObject({ status: 400, field: 'format' });
  });

  it('refuses an unknown recall parameter, naming it, and reads scope.K parameters', async () => {
    await t.request('POST', '/v1/subjects/a3/memories', { key: writer, body: entry('sms', { scopes: { project: 'shop-a' } }) });
    await t.request('POST', '/v1/subjects/a3/memories', {
      key: writer,
      body: entry('post', { key: 'delivery.method', scopes: { project: 'shop-b' } }),
    });
    const scoped = await t.request('GET', '/v1/subjects/a3/recall?scope.project=shop-a', { key: reader });
    expect(scoped.status).toBe(200);
    expect(scoped.body.filters.scopes).toEqual({ project: 'shop-a' });
    expect(scoped.body.excluded.out_of_scope).toBe(1);
    const unknown = await t.request('GET', '/v1/subjects/a3/recall?limit=3', { key: reader });
    expect(problemOf(unknown)).toMatchObject({ status: 400, field: 'limit' });
    const budget = await t.request('GET', '/v1/subjects/a3/recall?budget=lots', { key: reader });
    expect(problemOf(budget)).toMatchObject({ status: 400, field: 'budget' });
  });
});

describe('ids of every valid length', () => {
  it('reaches a 128-character subject, and the artifact of an 80-character subject (an id over 100 characters)', async () => {
    const longest = `s${'x'.repeat(126)}9`;
    expect(longest).toHaveLength(128);
    await seed(longest);
    const recalled = await t.request('GET', `/v1/subjects/${longest}/recall`, { key: reader });
    expect(recalled.status, recalled.text).toBe(200);
    expect(recalled.body.items).toHaveLength(facts.length);
    const subject = `s${'y'.repeat(78)}9`;
    await seed(subject);
    const run = await t.request('POST', `/v1/subjects/${subject}/consolidations`, { key: writer, body: { mode: 'run' } });
    expect(run.status, run.text).toBe(201);
    const artifactId = run.body.publish.artifactId as string;
    expect(artifactId.length).toBeGreaterThan(100);
    expect(artifactId.length).toBeLessThanOrEqual(128);
    const artifact = await t.request('GET', `/v1/artifacts/${artifactId}`, { key: reader });
    expect(artifact.status, artifact.text).toBe(200);
    expect(artifact.body).toMatchObject({ artifactId, subject });
    const lineage = await t.request('GET', `/v1/artifacts/${artifactId}/lineage`, { key: auditor });
    expect(lineage.status, lineage.text).toBe(200);
  });

  it('answers ids past the rule, and URLs the framework refuses, as problem+json', async () => {
    const tooLong = await t.request('GET', `/v1/subjects/${'s'.repeat(129)}/recall`, { key: reader });
    expect(tooLong.status).toBe(400);
    expect(problemOf(tooLong)).toMatchObject({ code: 'invalid_input', field: 'subject' });
    const huge = await t.request('GET', `/v1/artifacts/${'a'.repeat(5000)}`, { key: reader });
    expect(huge.status).toBe(414);
    expect(problemOf(huge)).toMatchObject({ status: 414, code: 'uri_too_long' });
    const badUrl = await t.request('GET', '/v1/subjects/%zz/recall', { key: reader });
    expect(badUrl.status).toBe(400);
    expect(problemOf(badUrl)).toMatchObject({ code: 'invalid_input', field: 'path' });
  });
});
