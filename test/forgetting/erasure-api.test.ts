// Erasure over the HTTP API: the answers of every read route after a DELETE
// hold nothing of the erased entry or its summaries; a source ref is erased
// with DELETE …/memories?sourceRef= (tenant-wide: DELETE /v1/memories?…);
// an auditor runs the receipt's checks again, telling what to look for in
// the body; the checks include the HTTP API's own answers (asked in
// process); the service's log never held the number.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entry, startTestService, type TestService } from '../api/service.js';

let t: TestService;
let writer: string;
let auditor: string;
let admin: string;
beforeAll(async () => {
  t = await startTestService('forgetting_api', { config: { consolidationWorkers: 0 } });
  [writer, auditor, admin] = await Promise.all([t.key('acme', 'writer'), t.key('acme', 'auditor'), t.key('acme', 'admin')]);
});
afterAll(async () => t?.close());

const PHONE = '+33 6 12 34 56 78 (bureau)';

describe('erasure over HTTP', () => {
  it('after DELETE, no read route returns the number, its summary is gone, and a re-check passes', async () => {
    const s = 'http-erase';
    const phone = await t.request('POST', `/v1/subjects/${s}/memories`, {
      key: writer,
      body: entry(PHONE, { key: 'contact.phone', content: `Joignable au ${PHONE}` }),
    });
    expect(phone.status).toBe(201);
    expect((await t.request('POST', `/v1/subjects/${s}/memories`, { key: writer, body: entry('sms') })).status).toBe(201);
    const KEPT = 'prefers the Lisbon office on Thursdays';
    expect(
      (await t.request('POST', `/v1/subjects/${s}/memories`, { key: writer, body: entry(KEPT, { key: 'office.preference' }) })).status,
    ).toBe(201);
    const run = await t.request('POST', `/v1/subjects/${s}/consolidations`, { key: writer, body: { mode: 'run' } });
    expect(run.status).toBe(201);
    const artifactId = run.body.prepare.artifactId as string;
    const recallBefore = await t.request('GET', `/v1/subjects/${s}/recall?maxSensitivity=restricted`, { key: writer });
    expect(recallBefore.text).toContain(PHONE);
    const recordedAt = phone.body.recordedAt as string;

    const erased = await t.request('DELETE', `/v1/subjects/${s}/memories/${phone.body.memoryId}?reason=user%20request`, { key: writer });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({
      scope: 'memory',
      memoryIds: [phone.body.memoryId],
      invalidatedArtifactIds: [artifactId],
      canonicalRecords: 1,
      derivedRecordsInvalidated: 1,
    });
    expect(erased.body.verification.status, JSON.stringify(erased.body.verification)).toBe('passed');
    expect(erased.body.verification.checks.map((c: { path: string }) => c.path)).toEqual(
      expect.arrayContaining([
        'recall',
        'as_of',
        'replay',
        'lineage',
        'events',
        'projection:memory',
        'projection:conflicts_trust',
        'projection:candidates',
        'http_api',
      ]),
    );
    // The service asked its own routes: the subject's reads now and when the number was recorded, and 4 per artifact.
    const httpCheck = erased.body.verification.checks.find((c: { path: string }) => c.path === 'http_api');
    expect(httpCheck).toMatchObject({ status: 'passed', findings: 0 });
    expect(httpCheck.searched).toBeGreaterThanOrEqual(4 + 2 * 2 + 4);

    const answers = [
      await t.request('GET', `/v1/subjects/${s}/recall?maxSensitivity=restricted`, { key: writer }),
      await t.request('GET', `/v1/subjects/${s}/as-of?systemTime=${encodeURIComponent(recordedAt)}`, { key: auditor }),
      await t.request('GET', `/v1/subjects/${s}/replay?at=${encodeURIComponent(recordedAt)}`, { key: auditor }),
      await t.request('GET', `/v1/subjects/${s}/events`, { key: auditor }),
      await t.request('GET', `/v1/subjects/${s}/stale`, { key: auditor }),
      await t.request('GET', `/v1/artifacts/${encodeURIComponent(artifactId)}`, { key: auditor }),
      await t.request('GET', `/v1/artifacts/${encodeURIComponent(artifactId)}/lineage`, { key: auditor }),
      await t.request('GET', `/v1/artifacts/${encodeURIComponent(artifactId)}/assessment`, { key: auditor }),
    ];
    for (const answer of answers) {
      expect(answer.status, answer.text).toBe(200);
      expect(answer.text).not.toContain(PHONE);
      expect(answer.text).not.toContain('12 34 56 78');
    }
    expect(answers[0]!.text).toContain('sms');

    const again = await t.request('POST', `/v1/subjects/${s}/receipts/${erased.body.receiptId}/verify`, {
      key: auditor,
      body: { searchFor: [PHONE] },
    });
    expect(again.status, again.text).toBe(200);
    expect(again.body.verification).toMatchObject({ status: 'passed', searchedFor: ['plaintext', 'keyed_hash', 'sha256'] });
    expect(again.text).not.toContain(PHONE);
    expect((await t.request('POST', `/v1/subjects/${s}/receipts/${erased.body.receiptId}/verify`, { key: writer, body: {} })).status).toBe(
      403,
    );
    // The auditor's list: the receipt, who asked and why, never the number; not for a writer.
    const listed = await t.request('GET', `/v1/subjects/${s}/receipts`, { key: auditor });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.receipts).toEqual([erased.body]);
    expect(listed.body.receipts[0]).toMatchObject({ reason: 'user request', memoryIds: [phone.body.memoryId] });
    expect(listed.text).not.toContain('12 34 56 78');
    expect((await t.request('GET', `/v1/subjects/${s}/receipts`, { key: writer })).status).toBe(403);

    // The checks can fail: asked about a text the subject still holds, the read paths (the HTTP API's among them) find it.
    const control = await t.request('POST', `/v1/subjects/${s}/receipts/${erased.body.receiptId}/verify`, {
      key: auditor,
      body: { searchFor: [KEPT] },
    });
    expect(control.status, control.text).toBe(200);
    expect(control.body.verification.status).toBe('failed');
    const failing = control.body.verification.checks
      .filter((c: { status: string }) => c.status === 'failed')
      .map((c: { path: string }) => c.path);
    expect(failing).toEqual(expect.arrayContaining(['recall', 'events', 'http_api']));

    // The service's log: a line per request (the erasure's among them), none with the number.
    const log = t.logLines();
    expect(log.some((line) => line.includes(`/memories/${phone.body.memoryId}`))).toBe(true);
    for (const line of log) expect(line).not.toContain('12 34 56 78');
  });

  it('erases by source ref, and refuses a malformed one naming the field, writing nothing', async () => {
    const s = 'http-ref';
    const from = (ref: string, key: string, text: string) => ({ ...entry(text, { key }), source: { type: 'user_assertion', refs: [ref] } });
    const a = await t.request('POST', `/v1/subjects/${s}/memories`, {
      key: writer,
      body: from('msg://x/1', 'likes', 'loves long-distance trail running'),
    });
    await t.request('POST', `/v1/subjects/${s}/memories`, { key: writer, body: from('msg://x/2', 'city', 'Montevideo') });
    const before = await t.eventCount();
    const bad = await t.request('DELETE', `/v1/subjects/${s}/memories?sourceRef=${encodeURIComponent('has space')}`, { key: writer });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ field: 'sourceRef' });
    expect(await t.eventCount()).toBe(before);
    const erased = await t.request('DELETE', `/v1/subjects/${s}/memories?sourceRef=${encodeURIComponent('msg://x/1')}`, { key: writer });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({
      scope: 'source_ref',
      sourceRef: 'msg://x/1',
      memoryIds: [a.body.memoryId],
      verification: { status: 'passed' },
    });
    const events = await t.request('GET', `/v1/subjects/${s}/events`, { key: auditor });
    expect(events.text).not.toContain('trail running');
    expect(events.text).toContain('Montevideo');
  });

  it("erases a source ref in every subject of the key's tenant (admin only), a receipt per subject", async () => {
    const ref = 'doc://onboarding/v2';
    const body = (text: string) => ({ ...entry(text, { key: 'onboarding.note' }), source: { type: 'verified_tool_fact', refs: [ref] } });
    for (const s of ['wide-1', 'wide-2'])
      expect((await t.request('POST', `/v1/subjects/${s}/memories`, { key: writer, body: body(`badge code ${s} QW-8812`) })).status).toBe(
        201,
      );
    const path = `/v1/memories?sourceRef=${encodeURIComponent(ref)}&reason=withdrawn`;
    const before = await t.eventCount();
    expect((await t.request('DELETE', path, { key: writer })).status).toBe(403);
    expect(await t.eventCount()).toBe(before);
    const erased = await t.request('DELETE', path, { key: admin });
    expect(erased.status, erased.text).toBe(200);
    expect(erased.body).toMatchObject({ tenant: 'acme', sourceRef: ref, refused: [] });
    expect(erased.body.receipts.map((r: { subject: string }) => r.subject)).toEqual(['wide-1', 'wide-2']);
    for (const receipt of erased.body.receipts)
      expect(receipt).toMatchObject({ scope: 'source_ref', reason: 'withdrawn', verification: { status: 'passed' } });
    for (const s of ['wide-1', 'wide-2'])
      expect((await t.request('GET', `/v1/subjects/${s}/events`, { key: auditor })).text).not.toContain('QW-8812');
  });
});
