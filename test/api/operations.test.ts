// What operators see: /healthz, /readyz, /metrics (append latency,
// projection lag, consolidation outcomes, gate rejections, recall source),
// /openapi.json generated from the route declarations, problem+json for
// unknown routes; and the readiness probe against a lagging projection.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_VERSION, apiRoutes } from '../../src/api/app.js';
import { ServiceMetrics } from '../../src/api/metrics.js';
import { countOutcome } from '../../src/api/service/consolidation-outcomes.js';
import { ProjectionLagProbe } from '../../src/api/service/projection-lag.js';
import type { ApiServices } from '../../src/api/services.js';
import { recordMemory } from '../../src/commands/record.js';
import { catchUpProjections, openProjectionDatabase, PROJECTIONS } from '../../src/projections/index.js';
import { openTestLedger } from '../support/ledger.js';
import { lastPositionOf, logShows } from '../projections/support/log-horizon.js';
import { recallStreamName, subjectStreamName } from '../../src/domain/events/stream-names.js';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/open.js';
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { threadId } from 'node:worker_threads';
import { entry, problemOf, startTestService, type TestService } from './service.js';

let t: TestService;
let writer: string;
let reader: string;

beforeAll(async () => {
  t = await startTestService('api_operations', { config: { consolidationWorkers: 0 } });
  [writer, reader] = await Promise.all([t.key('acme', 'writer'), t.key('acme', 'reader')]);
});
afterAll(async () => {
  await t?.close();
});

/** The value of one sample of the exposition, or undefined. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = /\{(.*)\}/.exec(line)?.[1] ?? '';
    if (wanted.every((w) => labelText.split(',').includes(w))) return Number(line.split(' ').at(-1));
  }
  return undefined;
}

async function metricsUntil(check: (text: string) => boolean): Promise<string> {
  let text = '';
  for (let i = 0; i < 100; i++) {
    text = (await t.request('GET', '/metrics')).text;
    if (check(text)) return text;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`metrics never matched:\n${text}`);
}

describe('health', () => {
  it('is alive (/healthz) and ready once the projections are caught up (/readyz)', async () => {
    const health = await t.request('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(health.body.status).toBe('ok');
    await t.request('POST', '/v1/subjects/h1/memories', { key: writer, body: entry('email') });
    let ready = await t.request('GET', '/readyz');
    for (let i = 0; i < 50 && ready.status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      ready = await t.request('GET', '/readyz');
    }
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      ready: true,
      maxLagSeconds: 10,
      projections: [
        { projection: 'memory', lagIsLowerBound: false },
        { projection: 'conflicts_trust', lagIsLowerBound: false },
        { projection: 'candidates', lagIsLowerBound: false },
      ],
    });
    expect(ready.body.projections[0].schema).toMatch(/^mlp_memory_/);
    expect(ready.body.projections[1].schema).toMatch(/^mlp_conflicts_trust_/);
  });

  it('reports a projection that lags the log as not ready, with its lag in events', async () => {
    const ledger = await openTestLedger('api_lag');
    const database = await openProjectionDatabase(ledger.ledger.databaseUrl);
    try {
      for (const text of ['a', 'b', 'c'])
        await recordMemory(ledger.ledger, { tenant: 'acme', subject: 'lag' }, entry(text, { key: `k.${text}` }));
      // The log shows a commit once older transactions anywhere on the (shared) server have ended: wait for all three.
      await logShows(ledger.ledger.eventStore, (await lastPositionOf(ledger.ledger.eventStore, [subjectStreamName('acme', 'lag')]))!);
      const probe = new ProjectionLagProbe(database.db, ledger.ledger.eventStore, PROJECTIONS, { maxLagSeconds: 0, cacheMs: 0 });
      const lagging = await probe.readiness();
      expect(lagging.ready).toBe(false);
      expect(lagging.projections).toEqual([
        expect.objectContaining({ projection: 'memory', schema: null, lagEvents: 3 }),
        expect.objectContaining({ projection: 'conflicts_trust', schema: null, lagEvents: 3 }),
        expect.objectContaining({ projection: 'candidates', schema: null, lagEvents: 3 }),
      ]);
      // Counted by the store, not read: the oldest event (for its age) is all a measurement reads; past the limit, a lower bound.
      const eventsRead: number[] = [];
      const store = ledger.ledger.eventStore;
      const reading = new Proxy(store, {
        get: (target, property: keyof typeof store) =>
          property === 'readAll'
            ? async (options: Parameters<typeof store.readAll>[0]) => {
                const events = await target.readAll(options);
                eventsRead.push(events.length);
                return events;
              }
            : (target[property] as (...args: unknown[]) => unknown).bind(target),
      });
      const bounded = new ProjectionLagProbe(database.db, reading, PROJECTIONS, { maxLagSeconds: 0, cacheMs: 0, countLimit: 2 });
      expect((await bounded.measure()).map((p) => [p.lagEvents, p.lagIsLowerBound])).toEqual([
        [2, true],
        [2, true],
        [2, true],
      ]);
      expect(eventsRead).toEqual([1, 1, 1]);
      await catchUpProjections(ledger.ledger.eventStore, database.db);
      const caughtUp = await probe.readiness();
      expect(caughtUp.ready).toBe(true);
      expect(caughtUp.projections).toEqual([
        expect.objectContaining({ projection: 'memory', lagEvents: 0, lagSeconds: 0 }),
        expect.objectContaining({ projection: 'conflicts_trust', lagEvents: 0, lagSeconds: 0 }),
        expect.objectContaining({ projection: 'candidates', lagEvents: 0, lagSeconds: 0 }),
      ]);
    } finally {
      await database.close();
      await ledger.close();
    }
  });
});

describe('metrics', () => {
  it('exposes append latency, projection lag, consolidation outcomes and the recall source', async () => {
    for (const text of ['sms', 'post', 'fax'])
      await t.request('POST', '/v1/subjects/m1/memories', { key: writer, body: entry(text, { key: `channel.${text}` }) });
    expect((await t.request('GET', '/v1/subjects/m1/recall', { key: reader })).body.source).toBe('raw');
    expect((await t.request('POST', '/v1/subjects/m1/consolidations', { key: writer })).status).toBe(201);
    expect((await t.request('GET', '/v1/subjects/m1/recall', { key: reader })).body.source).toBe('summary');

    const text = await metricsUntil((m) => sample(m, 'memledger_consolidation_outcomes_total', { outcome: 'switched' }) === 1);
    expect((await t.request('GET', '/metrics')).contentType).toMatch(/^text\/plain/);
    expect(sample(text, 'memledger_event_store_append_seconds_count', { stream: 'subject', outcome: 'ok' })).toBeGreaterThanOrEqual(4);
    expect(sample(text, 'memledger_event_store_append_seconds_count', { stream: 'artifact', outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    // Each recall's record (the two above): its append is timed on its own.
    expect(sample(text, 'memledger_event_store_append_seconds_count', { stream: 'recall', outcome: 'ok' })).toBe(2);
    expect(sample(text, 'memledger_projection_lag_events', { projection: 'memory' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'memledger_projection_lag_seconds', { projection: 'memory' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'memledger_projection_lag_events', { projection: 'conflicts_trust' })).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'memledger_consolidation_outcomes_total', { outcome: 'gate_passed' })).toBe(1);
    expect(sample(text, 'memledger_recall_source_total', { source: 'raw', reason: 'no_alias' })).toBe(1);
    expect(sample(text, 'memledger_recall_source_total', { source: 'summary', reason: 'summary_current' })).toBe(1);
    expect(
      sample(text, 'memledger_http_request_duration_seconds_count', {
        method: 'POST',
        route: '/v1/subjects/:subject/memories',
        status: '201',
      }),
    ).toBeGreaterThanOrEqual(3);
    expect(text).toContain('memledger_process_cpu_seconds_total');
  });

  it('counts the memories a recall served as the service records it, once; a recall record from elsewhere is not read back', async () => {
    for (const text of ['sms', 'post'])
      await t.request('POST', '/v1/subjects/m2/memories', { key: writer, body: entry(text, { key: `channel.${text}` }) });
    const served = async () => sample((await t.request('GET', '/metrics')).text, 'memledger_recall_served_total', { stale: 'false' }) ?? 0;
    const before = await served();
    const answer = await t.request('GET', '/v1/subjects/m2/recall', { key: reader });
    expect(answer.body.items).toHaveLength(2);
    expect(await served()).toBe(before + 2);
    // A recall record another process appended (the CLI's, say) is that process's to count: the service never reads
    // recall records back from the log (4-20 KB each, one per recall).
    const store = await openPostgresEventStore(t.database.url);
    try {
      await store.append(
        recallStreamName('acme', 'm2'),
        [{ id: randomUUID(), type: 'RecallServed', data: { items: [{ memories: [{}, {}, {}] }] }, metadata: { schemaVersion: 1 } }],
        { expectedRevision: 'any' },
      );
      // The feedback the outcome subscription does read still arrives: the log is being followed meanwhile.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(await served()).toBe(before + 2);
    } finally {
      await store.close();
    }
  });

  it('counts gate failures by reason and refused switches by fence', () => {
    const metrics = new ServiceMetrics({ processMetrics: false });
    countOutcome(metrics, {
      type: 'GateFailed',
      data: { reasons: [{ code: 'missing_fact' }, { code: 'polarity_flipped' }, { code: 'missing_fact' }] },
    });
    countOutcome(metrics, { type: 'ConsolidationRejected', data: { reason: 'epoch_changed' } });
    countOutcome(metrics, { type: 'MemoryRecorded', data: {} });
    return metrics.exposition().then(({ body }) => {
      expect(sample(body, 'memledger_gate_rejections_total', { reason: 'missing_fact' })).toBe(1);
      expect(sample(body, 'memledger_gate_rejections_total', { reason: 'polarity_flipped' })).toBe(1);
      expect(sample(body, 'memledger_consolidation_outcomes_total', { outcome: 'gate_failed', reason: 'missing_fact' })).toBe(1);
      expect(sample(body, 'memledger_consolidation_outcomes_total', { outcome: 'rejected', reason: 'epoch_changed' })).toBe(1);
    });
  });
});

describe('background work', () => {
  it("the service's consolidation worker publishes a summary for a due subject without being asked", async () => {
    const busy = await startTestService('api_worker', {
      config: { consolidationWorkers: 1, consolidationThreshold: 2, consolidationPollMs: 100 },
    });
    try {
      const [w, r] = await Promise.all([busy.key('acme', 'writer'), busy.key('acme', 'reader')]);
      for (const text of ['sms', 'post'])
        expect(
          (await busy.request('POST', '/v1/subjects/due1/memories', { key: w, body: entry(text, { key: `channel.${text}` }) })).status,
        ).toBe(201);
      let answer = await busy.request('GET', '/v1/subjects/due1/recall', { key: r });
      for (let i = 0; i < 200 && answer.body.source !== 'summary'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await busy.request('GET', '/v1/subjects/due1/recall', { key: r });
      }
      expect(answer.body).toMatchObject({ source: 'summary', reason: 'summary_current', alias: { coversThrough: 2 } });
      // On a thread of its own (not the requests' event loop), its appends timed into the service's histogram all the same.
      const runs = busy
        .logLines()
        .map((line) => JSON.parse(line) as { msg: string; status?: string; subject?: string; thread?: number })
        .filter((line) => line.msg === 'consolidation' && line.subject === 'due1');
      expect(runs).toContainEqual(expect.objectContaining({ status: 'switched', thread: expect.any(Number) }));
      expect(runs.every((run) => run.thread !== undefined && run.thread !== threadId)).toBe(true);
      // Below the requests: its thread runs at nice 10 (the process's other threads at 0).
      const nice = readdirSync('/proc/self/task').map((task) =>
        Number(readFileSync(`/proc/self/task/${task}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]),
      );
      expect(nice).toContain(10);
      const metrics = (await busy.request('GET', '/metrics')).text;
      expect(sample(metrics, 'memledger_event_store_append_seconds_count', { stream: 'artifact', outcome: 'ok' })).toBeGreaterThan(0);
    } finally {
      await busy.close();
    }
  });
});

describe('off-peak consolidation', () => {
  it("a due subject waits while the requests' thread is busy, and is consolidated once it is quiet", async () => {
    const service = await startTestService('api_off_peak', {
      config: { consolidationWorkers: 1, consolidationThreshold: 2, consolidationPollMs: 100, consolidationDeferMs: 120_000 },
    });
    // The requests' thread busy about 80% of the time: the service's own load watch says so to the consolidation thread.
    const spin = setInterval(() => {
      for (const until = performance.now() + 80; performance.now() < until;);
    }, 100);
    try {
      const [w, r] = await Promise.all([service.key('acme', 'writer'), service.key('acme', 'reader')]);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      for (const text of ['sms', 'post'])
        expect(
          (await service.request('POST', '/v1/subjects/offpeak1/memories', { key: w, body: entry(text, { key: `channel.${text}` }) }))
            .status,
        ).toBe(201);
      await new Promise((resolve) => setTimeout(resolve, 2500));
      const runs = () =>
        service
          .logLines()
          .map((line) => JSON.parse(line) as { msg: string; status?: string; subject?: string; deferredMs?: number })
          .filter((line) => line.msg === 'consolidation' && line.subject === 'offpeak1');
      expect(runs()).toEqual([]);
      expect((await service.request('GET', '/v1/subjects/offpeak1/recall', { key: r })).body.source).toBe('raw');
      clearInterval(spin);
      let answer = await service.request('GET', '/v1/subjects/offpeak1/recall', { key: r });
      for (let i = 0; i < 200 && answer.body.source !== 'summary'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await service.request('GET', '/v1/subjects/offpeak1/recall', { key: r });
      }
      expect(answer.body).toMatchObject({ source: 'summary', alias: { coversThrough: 2 } });
      expect(runs()).toContainEqual(expect.objectContaining({ status: 'switched', deferredMs: expect.any(Number) }));
      // It waited from when the worker found it due (a poll after the writes' commits showed in the log) until the quiet.
      expect(runs()[0]!.deferredMs).toBeGreaterThan(0);
    } finally {
      clearInterval(spin);
      await service.close();
    }
  });
});

describe('the OpenAPI document', () => {
  it('lists every route with its method, parameters, body and problem responses', async () => {
    const response = await t.request('GET', '/openapi.json');
    expect(response.status).toBe(200);
    const doc = response.body;
    expect(doc).toMatchObject({
      openapi: '3.1.0',
      info: { title: 'memledger', version: API_VERSION },
      components: { securitySchemes: { apiKey: { type: 'http', scheme: 'bearer' } } },
    });
    const routes = apiRoutes({} as ApiServices, () => undefined);
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((r) => `${r.method} ${r.path}`).sort());
    for (const expected of [
      'POST /v1/subjects/{subject}/memories',
      'POST /v1/subjects/{subject}/memories:import',
      'DELETE /v1/subjects/{subject}',
      'GET /v1/subjects/{subject}/recall',
      'GET /v1/artifacts/{artifactId}/lineage',
      'GET /metrics',
    ]) {
      expect(documented).toContain(expected);
    }
    const record = doc.paths['/v1/subjects/{subject}/memories'].post;
    expect(record.requestBody.content['application/json'].schema.required).toEqual(
      expect.arrayContaining(['kind', 'key', 'value', 'source']),
    );
    expect(record.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      'path:subject',
      'header:Idempotency-Key',
    ]);
    expect(record.responses['400'].content['application/problem+json']).toBeDefined();
    expect(record['x-memledger-roles']).toEqual(['writer', 'admin']);
    expect(doc.paths['/v1/subjects/{subject}/events'].get['x-memledger-roles']).toEqual(['auditor', 'admin']);
    expect(Object.keys(doc.paths['/v1/subjects/{subject}/memories:import'].post.requestBody.content)).toEqual([
      'application/json',
      'application/x-ndjson',
    ]);
  });

  it('answers an unknown route with a problem', async () => {
    const response = await t.request('GET', '/v1/nothing');
    expect(response.status).toBe(404);
    expect(problemOf(response)).toMatchObject({ code: 'route_not_found' });
  });
});
