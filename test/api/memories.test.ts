// The write routes end to end against a listening service: record,
// supersede, conflicts, resolve, retract, forget, import, trust, taint,
// expire (and the service's own TTL sweeper); bad input answers 400
// problem+json naming the field and appends nothing; Idempotency-Key retries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, problemOf, startTestService, type TestService } from './service.js';

let t: TestService;
let writer: string;
let reader: string;
let auditor: string;
let admin: string;

beforeAll(async () => {
  t = await startTestService('api_memories', { config: { sweepIntervalMs: 200 } });
  [writer, reader, auditor, admin] = await Promise.all([
    t.key('acme', 'writer'),
    t.key('acme', 'reader'),
    t.key('acme', 'auditor'),
    t.key('acme', 'admin'),
  ]);
});
afterAll(async () => {
  await t?.close();
});

const record = (subject: string, body: unknown, headers: Record<string, string> = {}) =>
  t.request('POST', `/v1/subjects/${subject}/memories`, { key: writer, body, headers });
const eventTypes = async (subject: string): Promise<string[]> =>
  (await t.request('GET', `/v1/subjects/${subject}/events`, { key: auditor })).body.map((e: { type: string }) => e.type);

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe('recording and changing memories', () => {
  it('records NEW (201), DUPLICATE (200), SUPERSEDES and CONFLICTS, lists and resolves the conflict', async () => {
    const first = await record('s1', entry('email', { validFrom: '2026-07-01T00:00:00Z' }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ decision: 'NEW', sequence: 1, supersedes: [], revision: 0 });
    const m1 = first.body.memoryId as string;

    const dup = await record('s1', entry('email', { validFrom: '2026-07-01T00:00:00Z' }));
    expect(dup.status).toBe(200);
    expect(dup.body).toMatchObject({ decision: 'DUPLICATE', memoryId: m1 });

    const sms = await t.request('POST', `/v1/subjects/s1/memories/${m1}/supersede`, {
      key: writer,
      body: entry('sms', { validFrom: '2026-07-10T00:00:00Z' }),
    });
    expect(sms.status).toBe(201);
    expect(sms.body).toMatchObject({ decision: 'SUPERSEDES', supersedes: [m1] });

    const phone = await record(
      's1',
      entry('phone', { source: { type: 'model_inference', refs: ['model://guess'] }, validFrom: '2026-07-11T00:00:00Z' }),
    );
    expect(phone.status).toBe(201);
    expect(phone.body.decision).toBe('CONFLICTS');
    const conflictId = phone.body.conflictId as string;

    const open = await t.request('GET', '/v1/subjects/s1/conflicts', { key: reader });
    expect(open.status).toBe(200);
    expect(open.body).toEqual([
      { conflictId, key: 'notification.preference', scopes: {}, memoryIds: [sms.body.memoryId, phone.body.memoryId] },
    ]);

    const resolved = await t.request('POST', `/v1/subjects/s1/conflicts/${conflictId}/resolve`, {
      key: writer,
      body: { winner: sms.body.memoryId, reason: 'the user said so' },
    });
    expect(resolved.status).toBe(200);
    expect(resolved.body.events.map((e: { type: string }) => e.type)).toContain('ConflictResolved');
    expect((await t.request('GET', '/v1/subjects/s1/conflicts', { key: reader })).body).toEqual([]);
    expect(await eventTypes('s1')).toEqual([
      'MemoryRecorded',
      'MemoryCorroborated',
      'MemorySuperseded',
      'MemoryRecorded',
      'MemoryRecorded',
      'ConflictDetected',
      'ConflictResolved',
      'MemorySuperseded',
    ]);
  });

  it('retracts once (200), refuses a second retraction (409) and an unknown memory (404), appending nothing for them', async () => {
    const m = (await record('s2', entry('email'))).body.memoryId as string;
    const retracted = await t.request('POST', `/v1/subjects/s2/memories/${m}/retract`, {
      key: writer,
      body: { reason: 'the tool was wrong' },
    });
    expect(retracted.status).toBe(200);
    expect(retracted.body).toMatchObject({ events: [{ type: 'MemoryRetracted' }], revision: 1, replayed: false });
    const before = await t.eventCount();
    const again = await t.request('POST', `/v1/subjects/s2/memories/${m}/retract`, { key: writer, body: { reason: 'again' } });
    expect(again.status).toBe(409);
    expect(problemOf(again)).toMatchObject({ status: 409, code: 'already_retracted' });
    const unknown = await t.request('POST', '/v1/subjects/s2/memories/m-unknown/retract', { key: writer, body: { reason: 'no such' } });
    expect(unknown.status).toBe(404);
    expect(problemOf(unknown)).toMatchObject({ code: 'memory_not_found' });
    expect(await t.eventCount()).toBe(before);
  });

  it('forgets one memory with a deletion receipt; the events show its content as forgotten', async () => {
    const m = (
      await record(
        's3',
        entry('+49 170 0000000', { key: 'contact.phone', source: { type: 'user_assertion', refs: ['msg://thread-9/turn-3'] } }),
      )
    ).body.memoryId as string;
    const receipt = await t.request('DELETE', `/v1/subjects/s3/memories/${m}?reason=user%20request`, { key: writer });
    expect(receipt.status).toBe(200);
    expect(receipt.body).toMatchObject({ tenant: 'acme', subject: 's3', scope: 'memory', memoryIds: [m] });
    expect(receipt.body.destroyedKeyIds.length).toBeGreaterThan(0);
    const events = (await t.request('GET', '/v1/subjects/s3/events', { key: auditor })).body;
    expect(events.map((e: { type: string }) => e.type)).toEqual(['MemoryRecorded', 'MemoryForgotten', 'DeletionReceiptIssued']);
    expect(events[0].data.value).toEqual({ status: 'forgotten' });
    expect(JSON.stringify(events)).not.toContain('0000000');
  });

  it('records anticipated queries sealed; the events open them, and an erasure makes them forgotten', async () => {
    const body = entry('sms only', { key: 'contact.channel', anticipatedQueries: ['Can we call this customer?', '这位客户能打电话吗？'] });
    const recorded = await record('s3q', body);
    expect(recorded.status).toBe(201);
    const events = async () =>
      (await t.request('GET', '/v1/subjects/s3q/events', { key: auditor })).body as Array<{ data: { anticipatedQueries?: unknown } }>;
    expect((await events())[0]!.data.anticipatedQueries).toEqual({ status: 'readable', plaintext: body.anticipatedQueries });
    await t.request('DELETE', `/v1/subjects/s3q/memories/${(recorded.body as { memoryId: string }).memoryId}?reason=test`, { key: writer });
    const after = await events();
    expect(after[0]!.data.anticipatedQueries).toEqual({ status: 'forgotten' });
    expect(JSON.stringify(after)).not.toContain('call this customer');
  });

  it('forgets a whole subject (admin only); nothing more is recorded for it', async () => {
    await record('s4', entry('email'));
    expect((await t.request('DELETE', '/v1/subjects/s4', { key: writer })).status).toBe(403);
    const receipt = await t.request('DELETE', '/v1/subjects/s4', { key: admin });
    expect(receipt.status).toBe(200);
    expect(receipt.body.scope).toBe('subject');
    const refused = await record('s4', entry('sms'));
    expect(refused.status).toBe(409);
    expect(problemOf(refused)).toMatchObject({ code: 'already_forgotten', field: 'subject' });
  });

  it("forgetting a subject with no events, or another tenant's, is 404 subject_not_found and writes nothing (the id stays usable)", async () => {
    const before = await t.eventCount();
    const never = await t.request('DELETE', '/v1/subjects/never-was?reason=cleanup', { key: admin });
    expect(problemOf(never)).toMatchObject({ status: 404, code: 'subject_not_found', field: 'subject' });
    await record('theirs', entry('email'));
    const otherAdmin = await t.key('globex', 'admin');
    const foreign = await t.request('DELETE', '/v1/subjects/theirs', { key: otherAdmin });
    expect(problemOf(foreign)).toMatchObject({ status: 404, code: 'subject_not_found', field: 'subject' });
    expect(await t.eventCount()).toBe(before + 1);
    // No tombstone: the never-used id records, and globex's own subject of that name too.
    expect((await record('never-was', entry('sms'))).status).toBe(201);
    const globex = await t.request('POST', '/v1/subjects/theirs/memories', { key: await t.key('globex', 'writer'), body: entry('x') });
    expect(globex.status).toBe(201);
    expect((await record('theirs', entry('sms'))).status).toBe(201);
  });

  it('changes trust and escalates the taint policy (admin), sweeps TTLs on request (writer)', async () => {
    await record('s5', entry('email'));
    const trust = await t.request('POST', '/v1/subjects/s5/trust', {
      key: admin,
      body: { sourceRef: 'msg://thread-9/email', level: 'untrusted', reason: 'spoofed' },
    });
    expect(trust.status).toBe(200);
    expect(trust.body.events[0].type).toBe('TrustChanged');
    expect(
      (await t.request('POST', '/v1/subjects/s5/trust', { key: writer, body: { sourceRef: 'msg://x', level: 'untrusted' } })).status,
    ).toBe(403);
    const taint = await t.request('POST', '/v1/subjects/s5/taint', {
      key: admin,
      body: { refPatterns: ['msg://thread-9/*'], reason: 'compromised thread' },
    });
    expect(taint.status).toBe(200);
    expect(taint.body.events[0].type).toBe('TaintPolicyEscalated');

    await record('s5', entry('old', { key: 'order.note', expiresAt: '2020-01-01T00:00:00Z' }));
    const future = await t.request('POST', '/v1/subjects/s5/expire', { key: writer, body: { now: '2999-01-01T00:00:00Z' } });
    expect(future.status).toBe(400);
    expect(problemOf(future).field).toBe('now');
    const expire = await t.request('POST', '/v1/subjects/s5/expire', { key: writer });
    expect(expire.status).toBe(200);
    const types = expire.body.events.map((e: { type: string }) => e.type);
    // The service's own sweeper may have been first: then this sweep finds nothing left.
    expect(types.every((type: string) => type === 'MemoryExpired')).toBe(true);
    expect((await eventTypes('s5')).filter((type) => type === 'MemoryExpired')).toHaveLength(1);
  });

  it("the service's TTL sweeper expires an entry whose expiresAt has passed, without being asked", async () => {
    await record('s6', entry('stale note', { key: 'order.note', expiresAt: '2021-01-01T00:00:00Z' }));
    const types = await until(async () => {
      const seen = await eventTypes('s6');
      return seen.includes('MemoryExpired') ? seen : undefined;
    }, 'the sweeper');
    expect(types).toEqual(['MemoryRecorded', 'MemoryExpired']);
  });
});

describe('bad input: 400 problem+json naming the field, nothing appended', () => {
  const cases: Array<{
    name: string;
    method: string;
    path: string;
    body?: unknown;
    raw?: string | Uint8Array;
    contentType?: string;
    headers?: Record<string, string>;
    status?: number;
    field: string;
  }> = [
    {
      name: 'a malformed amount',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x', { value: { type: 'number', amount: 'seventy' } }),
      field: 'value.amount',
    },
    {
      name: 'an anticipated query over 256 characters',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x', { anticipatedQueries: ['fine?', 'x'.repeat(257)] }),
      field: 'anticipatedQueries.1',
    },
    {
      name: 'an unknown entry field',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x', { colour: 'red' }),
      field: 'colour',
    },
    {
      name: 'a missing required field',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: { kind: 'profile', key: 'a.b', value: { type: 'text', text: 'x' } },
      field: 'source',
    },
    { name: 'no body', method: 'POST', path: '/v1/subjects/bad/memories', field: 'body' },
    { name: 'a body that is not JSON', method: 'POST', path: '/v1/subjects/bad/memories', raw: '{"kind": ', field: 'body' },
    { name: 'a bad subject id', method: 'POST', path: '/v1/subjects/bad%20subject/memories', body: entry('x'), field: 'subject' },
    { name: 'a bad memory id', method: 'POST', path: '/v1/subjects/bad/memories/-m/retract', body: { reason: 'x' }, field: 'memoryId' },
    { name: 'a retraction without a reason', method: 'POST', path: '/v1/subjects/bad/memories/m-1/retract', body: {}, field: 'reason' },
    {
      name: 'a resolve without a winner',
      method: 'POST',
      path: '/v1/subjects/bad/conflicts/c-1/resolve',
      body: { reason: 'x' },
      field: 'winner',
    },
    {
      name: 'an Idempotency-Key that is too long',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x'),
      headers: { 'idempotency-key': 'k'.repeat(300) },
      field: 'Idempotency-Key',
    },
    {
      name: 'a trust level that does not exist',
      method: 'POST',
      path: '/v1/subjects/bad/trust',
      body: { sourceRef: 'msg://x', level: 'very' },
      field: 'level',
    },
    {
      name: 'an import entry with a bad value',
      method: 'POST',
      path: '/v1/subjects/bad/memories:import',
      body: { entries: [entry('a'), entry('b', { value: { type: 'date', date: '2026-02-30' } })] },
      field: 'entries.1.value.date',
    },
    {
      name: 'an import line that is not JSON',
      method: 'POST',
      path: '/v1/subjects/bad/memories:import',
      raw: `${JSON.stringify(entry('a'))}\n{nope\n`,
      contentType: 'application/x-ndjson',
      field: 'line 2',
    },
    {
      name: 'a body of another media type',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      raw: 'kind=profile',
      contentType: 'text/plain',
      status: 415,
      field: 'Content-Type',
    },
    {
      name: 'a validFrom in year 0 (PostgreSQL has none)',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x', { validFrom: '0000-01-01T00:00:00Z' }),
      field: 'validFrom',
    },
    {
      name: 'an expiresAt that is year 0 in UTC',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x', { expiresAt: '0001-01-01T00:30:00+01:00' }),
      field: 'expiresAt',
    },
    { name: 'an as-of time in year 0', method: 'GET', path: '/v1/subjects/bad/as-of?systemTime=0000-06-01T00:00:00Z', field: 'systemTime' },
    {
      name: 'a lone surrogate in value.text',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x', { value: { type: 'text', text: 'half \ud83d pair' } }),
      field: 'value.text',
    },
    {
      name: 'a lone surrogate in content',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      body: entry('x', { content: 'trailing \udc00' }),
      field: 'content',
    },
    {
      name: 'a body that is not valid UTF-8',
      method: 'POST',
      path: '/v1/subjects/bad/memories',
      raw: Buffer.concat([
        Buffer.from('{"kind":"profile","key":"a.b","value":{"type":"text","text":"'),
        Buffer.from([0xc3, 0x28]),
        Buffer.from('"},"source":{"type":"user_assertion"}}'),
      ]),
      field: 'body',
    },
    {
      name: 'import lines that are not valid UTF-8',
      method: 'POST',
      path: '/v1/subjects/bad/memories:import',
      raw: Buffer.concat([Buffer.from(`${JSON.stringify(entry('a'))}\n{"kind":"`), Buffer.from([0xff]), Buffer.from('"}\n')]),
      contentType: 'application/x-ndjson',
      field: 'body',
    },
    {
      name: 'a taint ref pattern with whitespace',
      method: 'POST',
      path: '/v1/subjects/bad/taint',
      body: { refPatterns: ['msg://thread 9/*'], reason: 'compromised' },
      field: 'refPatterns.0',
    },
    { name: 'a forget reason that is empty', method: 'DELETE', path: '/v1/subjects/bad/memories/m-1?reason=', field: 'reason' },
  ];

  for (const c of cases) {
    it(`refuses ${c.name}`, async () => {
      const before = await t.eventCount();
      const key = c.path.includes('/trust') || c.path.includes('/taint') ? admin : c.path.includes('/as-of') ? auditor : writer;
      const response = await t.request(c.method, c.path, {
        key,
        ...(c.raw !== undefined
          ? { rawBody: c.raw, contentType: c.contentType ?? 'application/json' }
          : c.body !== undefined
            ? { body: c.body }
            : {}),
        ...(c.headers ? { headers: c.headers } : {}),
      });
      expect(response.status).toBe(c.status ?? 400);
      const problem = problemOf(response);
      expect(problem).toMatchObject({ status: c.status ?? 400, field: c.field });
      expect(problem.type).toMatch(/^urn:memledger:problem:/);
      expect(problem.title.length).toBeGreaterThan(0);
      expect(problem.detail.length).toBeGreaterThan(0);
      expect(await t.eventCount()).toBe(before);
    });
  }
});

describe('Idempotency-Key', () => {
  it('answers a retry as the first time and appends nothing', async () => {
    const headers = { 'idempotency-key': 'order-17-pref' };
    const first = await record('i1', entry('email'), headers);
    expect(first.status).toBe(201);
    const count = await t.eventCount();
    const retry = await record('i1', entry('email'), headers);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual({ ...first.body, replayed: true });
    expect(await t.eventCount()).toBe(count);
  });

  it('reused with another request is a 409 naming the key, and appends nothing; the same request again is a replay that says so', async () => {
    const headers = { 'idempotency-key': 'turn-31' };
    const first = await record('i4', entry('email'), headers);
    expect(first.status).toBe(201);
    expect(first.body.replayed).toBe(false);
    const count = await t.eventCount();
    const other = await record('i4', entry('sms', { key: 'delivery.channel' }), headers);
    expect(other.status, other.text).toBe(409);
    expect(problemOf(other)).toMatchObject({ code: 'idempotency_key_reused', field: 'Idempotency-Key' });
    expect(problemOf(other).detail).toContain('turn-31');
    expect(await t.eventCount()).toBe(count);
    const again = await record('i4', entry('email'), headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await t.eventCount()).toBe(count);
    // An import sent again under its key with other entries is refused the same way.
    const imported = await t.request('POST', '/v1/subjects/i4/memories:import', {
      key: writer,
      body: { entries: [entry('post', { key: 'a.one' })] },
      headers: { 'idempotency-key': 'batch-1' },
    });
    expect(imported.status).toBe(200);
    const reimported = await t.request('POST', '/v1/subjects/i4/memories:import', {
      key: writer,
      body: { entries: [entry('fax', { key: 'a.one' })] },
      headers: { 'idempotency-key': 'batch-1' },
    });
    expect(reimported.status, reimported.text).toBe(409);
    expect(problemOf(reimported)).toMatchObject({ code: 'idempotency_key_reused', field: 'Idempotency-Key' });
    expect(await t.eventCount()).toBe(count + 1);
  });

  it('is scoped to tenant, subject and operation: the same key elsewhere is another command', async () => {
    const headers = { 'idempotency-key': 'shared-key' };
    const a = await record('i2', entry('email'), headers);
    const b = await record('i3', entry('email'), headers);
    const other = await t.request('POST', '/v1/subjects/i2/memories', {
      key: await t.key('globex', 'writer'),
      body: entry('email'),
      headers,
    });
    expect([a.status, b.status, other.status]).toEqual([201, 201, 201]);
    expect(new Set([a.body.memoryId, b.body.memoryId, other.body.memoryId]).size).toBe(3);
    const retract = await t.request('POST', `/v1/subjects/i2/memories/${a.body.memoryId}/retract`, {
      key: writer,
      body: { reason: 'x' },
      headers,
    });
    expect(retract.status).toBe(200);
    expect(retract.body.events[0].type).toBe('MemoryRetracted');
  });
});

describe('bulk import', () => {
  const lines = [entry('email', { key: 'a.one' }), entry('sms', { key: 'a.two' }), entry('post', { key: 'a.three' })];

  it('imports a JSON body; sending it again appends nothing', async () => {
    const first = await t.request('POST', '/v1/subjects/imp1/memories:import', { key: writer, body: { entries: lines, batchSize: 2 } });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ lines: 3, decisions: { NEW: 3 }, alreadyImported: 0, rejected: [], batches: 2 });
    const count = await t.eventCount();
    const again = await t.request('POST', '/v1/subjects/imp1/memories:import', { key: writer, body: { entries: lines, batchSize: 2 } });
    expect(again.body).toMatchObject({ lines: 3, alreadyImported: 3, batches: 0 });
    expect(await t.eventCount()).toBe(count);
  });

  it('imports JSON lines (application/x-ndjson)', async () => {
    const response = await t.request('POST', '/v1/subjects/imp2/memories:import', {
      key: writer,
      rawBody: lines.map((l) => JSON.stringify(l)).join('\n'),
      contentType: 'application/x-ndjson',
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ lines: 3, decisions: { NEW: 3 } });
    expect(await eventTypes('imp2')).toEqual(['MemoryRecorded', 'MemoryRecorded', 'MemoryRecorded']);
  });
});
