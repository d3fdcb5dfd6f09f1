// Property (issue 19 item 5): over random keys (tenant, role, namespace
// patterns), random subjects and random read routes, no answer ever holds a
// memory of a namespace its key does not allow. Every memory's id and text is
// known, so each answer body is searched for every one of them; the oracle
// of what a key allows is written here from the patterns' definition, apart
// from the code under test. Deterministic: a seeded generator (mulberry32).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, startTestService, type TestService } from './service.js';

const SEED = 0x19_2026;
const REQUESTS = 240;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

const SUBJECTS = ['user:u-1', 'user:u-2', 'user:u-10', 'team:t-1', 'team:t-2', 'project:p-1', 'agent:a-1', 'thread:h-1', 'legacy-1'];
const SHARED = SUBJECTS.filter((s) => s.startsWith('team:') || s.startsWith('project:'));
const PATTERNS = [...SUBJECTS, '*', 'user:*', 'team:*', 'project:*', 'user:u-1*', 'agent:*', 'nobody:x'];
const TENANTS = ['acme', 'globex'];
const ROLES = ['reader', 'auditor', 'reviewer', 'admin'] as const;

/** What a key allows, from the definition (README "Key scopes"), not from src/domain/namespace. */
const allows = (key: { tenant: string; patterns: string[] }, tenant: string, subject: string) =>
  key.tenant === tenant && key.patterns.some((p) => p === '*' || p === subject || (p.endsWith('*') && subject.startsWith(p.slice(0, -1))));

interface Planted {
  readonly tenant: string;
  readonly subject: string;
  readonly memoryId: string;
  readonly text: string;
}

let t: TestService;
const planted: Planted[] = [];
const artifacts = new Map<string, string>();

beforeAll(async () => {
  t = await startTestService('api_ns_property');
  for (const tenant of TENANTS) {
    const admin = await t.key(tenant, 'admin');
    for (const subject of SUBJECTS) {
      const text = `marker ${tenant} ${subject} ends`;
      const response = await t.request('POST', `/v1/subjects/${subject}/memories`, { key: admin, body: entry(text) });
      expect(response.status, response.text).toBe(201);
      planted.push({ tenant, subject, memoryId: response.body.memoryId as string, text });
    }
    const prepared = await t.request('POST', '/v1/subjects/team:t-1/consolidations', { key: admin, body: { mode: 'run' } });
    expect(prepared.status, prepared.text).toBe(201);
    artifacts.set(tenant, prepared.body.alias?.artifactId ?? prepared.body.artifactId);
  }
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('no request returns an item from a namespace its key does not allow', () => {
  it(`holds over ${REQUESTS} random keys, subjects and read routes (seed ${SEED})`, async () => {
    const random = mulberry32(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const now = encodeURIComponent(new Date().toISOString());
    const routes: Array<(subject: string, tenant: string) => { method: string; path: string; body?: unknown }> = [
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/recall` }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/recall?shared=${[pick(SHARED), pick(SHARED)].join(',')}` }),
      (s) => ({ method: 'POST', path: `/v1/subjects/${s}/recall`, body: { query: 'marker', shared: [pick(SHARED)] } }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/as-of?systemTime=${now}` }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/replay?at=${now}` }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/events` }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/stale` }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/conflicts` }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/receipts` }),
      (s) => ({ method: 'GET', path: `/v1/subjects/${s}/candidates` }),
      (_s, tenant) => ({ method: 'GET', path: `/v1/artifacts/${encodeURIComponent(artifacts.get(tenant)!)}` }),
      (_s, tenant) => ({ method: 'GET', path: `/v1/artifacts/${encodeURIComponent(artifacts.get(tenant)!)}/lineage` }),
    ];
    const keys = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const tenant = pick(TENANTS);
        const patterns = [...new Set(Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(PATTERNS)))];
        return { tenant, patterns, text: await t.key(tenant, pick(ROLES), patterns) };
      }),
    );
    let leaks = 0;
    const statuses = new Map<number, number>();
    for (let i = 0; i < REQUESTS; i += 1) {
      const key = pick(keys);
      const call = pick(routes)(pick(SUBJECTS), pick(TENANTS));
      const response = await t.request(call.method, call.path, { key: key.text, ...(call.body ? { body: call.body } : {}) });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect(response.status, `${call.method} ${call.path}: ${response.text}`).toBeLessThan(500);
      for (const p of planted) {
        if (allows(key, p.tenant, p.subject)) continue;
        if (response.text.includes(p.memoryId) || response.text.includes(p.text)) {
          leaks += 1;
          expect.fail(
            `${call.method} ${call.path} with ${key.tenant} ${key.patterns.join(',')} answered ${p.tenant}/${p.subject}'s memory`,
          );
        }
      }
    }
    expect(leaks).toBe(0);
    // Not vacuous: keys were let in and kept out, many times each.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(REQUESTS / 10);
    expect(statuses.get(404) ?? 0).toBeGreaterThan(REQUESTS / 10);
  }, 180_000);
});
