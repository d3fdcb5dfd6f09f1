// Keys and tenancy end to end: keys made, listed and revoked with the real
// CLI; missing or wrong keys answer 401, a role without the permission 403;
// the tenant comes from the key, and another tenant's subjects, memories and
// artifacts answer exactly as ids that do not exist (404), changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiKeyStore } from '../../src/infrastructure/api-keys/api-key-store.js';
import { runCli } from '../support/cli.js';
import { entry, problemOf, startTestService, type ApiResponse, type TestService } from './service.js';

let t: TestService;
let acmeWriter: string;
let acmeAuditor: string;
let globexAdmin: string;

beforeAll(async () => {
  t = await startTestService('api_auth');
  [acmeWriter, acmeAuditor, globexAdmin] = await Promise.all([t.key('acme', 'writer'), t.key('acme', 'auditor'), t.key('globex', 'admin')]);
});
afterAll(async () => {
  await t?.close();
});

const cli = (args: string[]) => runCli(args, { ...t.env, NO_COLOR: '1' });

describe('memledger keys (CLI)', () => {
  it('creates a key printed once, lists keys without them, revokes; a revoked key answers 401', async () => {
    const created = await cli(['keys', 'create', '--tenant', 'initech', '--role', 'reader', '--label', 'dashboard']);
    expect(created.code).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ tenant: 'initech', role: 'reader', label: 'dashboard', revokedAt: null });
    expect(key.key).toMatch(new RegExp(`^mlk_${key.keyId}_[A-Za-z0-9_-]{43}$`));

    const listed = await cli(['keys', 'list', '--tenant', 'initech']);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        keyId: key.keyId,
        tenant: 'initech',
        role: 'reader',
        namespaces: ['*'],
        channel: 'service',
        environment: 'production',
        label: 'dashboard',
        createdAt: key.createdAt,
        revokedAt: null,
      },
    ]);
    // The secret is all after `mlk_<keyId>_` (base64url: it may hold '_' itself).
    expect(listed.stdout).not.toContain(key.key.slice(`mlk_${key.keyId}_`.length));

    await t.request('POST', '/v1/subjects/u1/memories', { key: await t.key('initech', 'writer'), body: entry('email') });
    expect((await t.request('GET', '/v1/subjects/u1/conflicts', { key: key.key })).status).toBe(200);
    const revoked = await cli(['keys', 'revoke', '--key-id', key.keyId]);
    expect(revoked.code).toBe(0);
    expect(JSON.parse(revoked.stdout).revokedAt).not.toBeNull();
    const refused = await t.request('GET', '/v1/subjects/u1/conflicts', { key: key.key });
    expect(refused.status).toBe(401);
    expect(problemOf(refused)).toMatchObject({ code: 'unauthenticated', field: 'Authorization' });
  });

  it('refuses a bad role or an unknown key id with exit 2 naming the option, creating nothing', async () => {
    const role = await cli(['keys', 'create', '--tenant', 'hooli', '--role', 'superuser']);
    expect(role.code).toBe(2);
    expect(JSON.parse(role.stderr)).toMatchObject({ error: 'invalid_input', field: 'role' });
    const keys = new ApiKeyStore(t.database.url, { poolSize: 1 });
    try {
      expect(await keys.list({ tenant: 'hooli' })).toEqual([]);
    } finally {
      await keys.close();
    }
    const unknown = await cli(['keys', 'revoke', '--key-id', 'aaaaaaaaaaaaaaaa']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stderr)).toMatchObject({ field: 'key-id' });
  });
});

describe('authentication: 401 for every kind of wrong key, the same answer each time', () => {
  const path = '/v1/subjects/a1/memories';
  it('refuses a request without a key, with WWW-Authenticate: Bearer', async () => {
    const before = await t.eventCount();
    const response = await t.request('POST', path, { body: entry('email') });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe('Bearer');
    expect(problemOf(response)).toMatchObject({ status: 401, code: 'unauthenticated', field: 'Authorization' });
    expect(await t.eventCount()).toBe(before);
  });

  it('answers a malformed, an unknown and a tampered key alike, appending nothing', async () => {
    const before = await t.eventCount();
    const tampered = `${acmeWriter.slice(0, -4)}AAAA`;
    const unknown = `mlk_aaaaaaaaaaaaaaaa_${'A'.repeat(43)}`;
    const answers: ApiResponse[] = [];
    for (const authorization of [
      'Bearer nonsense',
      `Bearer ${unknown}`,
      `Bearer ${tampered}`,
      `Basic ${Buffer.from('a:b').toString('base64')}`,
    ]) {
      answers.push(await t.request('POST', path, { body: entry('email'), headers: { authorization } }));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(401);
      expect({ ...answer.body, instance: undefined }).toEqual({ ...answers[0]!.body, instance: undefined });
    }
    expect(await t.eventCount()).toBe(before);
  });
});

describe('roles: 403 where the role lacks the permission', () => {
  it('lets each role do what permissions.ts grants, and nothing else', async () => {
    const [reader, writer, auditor, admin] = await Promise.all([
      t.key('acme', 'reader'),
      t.key('acme', 'writer'),
      t.key('acme', 'auditor'),
      t.key('acme', 'admin'),
    ]);
    const m = (await t.request('POST', '/v1/subjects/r1/memories', { key: writer, body: entry('email') })).body.memoryId;
    const calls: Array<{ name: string; method: string; path: string; body?: unknown; allowed: string[] }> = [
      { name: 'record', method: 'POST', path: '/v1/subjects/r1/memories', body: entry('sms'), allowed: ['writer', 'admin'] },
      { name: 'conflicts', method: 'GET', path: '/v1/subjects/r1/conflicts', allowed: ['reader', 'writer', 'auditor', 'admin'] },
      { name: 'recall', method: 'GET', path: '/v1/subjects/r1/recall', allowed: ['reader', 'writer', 'auditor', 'admin'] },
      { name: 'events', method: 'GET', path: '/v1/subjects/r1/events', allowed: ['auditor', 'admin'] },
      {
        name: 'as-of',
        method: 'GET',
        path: `/v1/subjects/r1/as-of?systemTime=${encodeURIComponent(new Date().toISOString())}`,
        allowed: ['auditor', 'admin'],
      },
      {
        name: 'replay',
        method: 'GET',
        path: `/v1/subjects/r1/replay?at=${encodeURIComponent(new Date().toISOString())}`,
        allowed: ['auditor', 'admin'],
      },
      { name: 'stale', method: 'GET', path: '/v1/subjects/r1/stale', allowed: ['auditor', 'admin'] },
      {
        name: 'trust',
        method: 'POST',
        path: '/v1/subjects/r1/trust',
        body: { sourceRef: 'msg://x', level: 'model_inference' },
        allowed: ['admin'],
      },
      { name: 'forget subject', method: 'DELETE', path: '/v1/subjects/r-never', allowed: ['admin'] },
      {
        name: 'retract',
        method: 'POST',
        path: `/v1/subjects/r1/memories/${m}/retract`,
        body: { reason: 'x' },
        allowed: ['writer', 'admin'],
      },
    ];
    const keys = { reader, writer, auditor, admin } as const;
    for (const call of calls) {
      for (const [role, key] of Object.entries(keys)) {
        const response = await t.request(call.method, call.path, { key, ...(call.body !== undefined ? { body: call.body } : {}) });
        const allowed = call.allowed.includes(role);
        expect({ call: call.name, role, forbidden: response.status === 403 }).toEqual({ call: call.name, role, forbidden: !allowed });
        if (!allowed) expect(problemOf(response)).toMatchObject({ code: 'forbidden', field: 'Authorization' });
      }
    }
  });
});

describe("tenancy: another tenant's ids answer as ids that do not exist", () => {
  /** The answer for `path` with an existing id replaced by one that exists nowhere, for comparison. */
  async function sameAsMissing(method: string, pathWith: (id: string) => string, id: string, body?: unknown): Promise<ApiResponse> {
    const theirs = await t.request(method, pathWith(id), { key: globexAdmin, ...(body !== undefined ? { body } : {}) });
    const missing = await t.request(method, pathWith('zz-nowhere'), { key: globexAdmin, ...(body !== undefined ? { body } : {}) });
    const scrub = (r: ApiResponse, value: string) => JSON.parse(r.text.split(value).join('<id>'));
    expect(theirs.status).toBe(404);
    expect(scrub(theirs, id)).toEqual(scrub(missing, 'zz-nowhere'));
    return theirs;
  }

  it('subjects, memories and artifacts of acme are 404 for globex, and stay untouched', async () => {
    const m = (await t.request('POST', '/v1/subjects/secret-subject/memories', { key: acmeWriter, body: entry('email') })).body
      .memoryId as string;
    const prepared = await t.request('POST', '/v1/subjects/secret-subject/consolidations', { key: acmeWriter, body: { mode: 'prepare' } });
    expect(prepared.status).toBe(201);
    const artifactId = prepared.body.artifactId as string;
    const acmeEvents = (await t.request('GET', '/v1/subjects/secret-subject/events', { key: acmeAuditor })).body;

    await sameAsMissing('GET', (s) => `/v1/subjects/${s}/events`, 'secret-subject');
    await sameAsMissing('GET', (s) => `/v1/subjects/${s}/conflicts`, 'secret-subject');
    await sameAsMissing('GET', (s) => `/v1/subjects/${s}/recall`, 'secret-subject');
    await sameAsMissing('GET', (s) => `/v1/subjects/${s}/stale`, 'secret-subject');
    await sameAsMissing('POST', (s) => `/v1/subjects/${s}/consolidations`, 'secret-subject', {});
    await sameAsMissing('POST', (id) => `/v1/subjects/secret-subject/memories/${id}/retract`, m, { reason: 'x' });
    await sameAsMissing('DELETE', (id) => `/v1/subjects/secret-subject/memories/${id}`, m);
    await sameAsMissing('GET', (id) => `/v1/artifacts/${id}`, artifactId);
    await sameAsMissing('GET', (id) => `/v1/artifacts/${id}/lineage`, artifactId);
    await sameAsMissing('GET', (id) => `/v1/artifacts/${id}/assessment`, artifactId);
    await sameAsMissing('POST', (id) => `/v1/artifacts/${id}/publish`, artifactId);
    await sameAsMissing('POST', (id) => `/v1/artifacts/${id}/approve`, artifactId);

    // globex writing to a subject of the same name writes its own subject.
    expect((await t.request('POST', '/v1/subjects/secret-subject/memories', { key: globexAdmin, body: entry('sms') })).status).toBe(201);
    expect((await t.request('GET', '/v1/subjects/secret-subject/events', { key: acmeAuditor })).body).toEqual(acmeEvents);
    expect((await t.request('GET', `/v1/artifacts/${artifactId}`, { key: acmeAuditor })).body).toMatchObject({
      artifactId,
      status: 'gate_passed',
      current: false,
    });
  });
});
