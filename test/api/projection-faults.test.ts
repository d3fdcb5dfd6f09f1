// A poison event in the immutable log — appended directly to the store, as a
// buggy or hostile writer could — must not wedge the projection: the running
// service's projector records it as a fault and goes on (every other subject
// and tenant is served, /readyz stays ready, /metrics counts the fault), the
// faulted subject's reads refuse with a typed error that says which event and
// why, and `projections rebuild` passes it again, recording the same fault.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import type { EventStore, StoredEvent } from '../../src/infrastructure/event-store/port.js';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/open.js';
import { runCli } from '../support/cli.js';
import { entry, problemOf, startTestService, type TestService } from './service.js';

let t: TestService;
let store: EventStore;
let keys: { acme: string; globex: string; auditor: string };
const poison: Record<'undecodable' | 'refused', StoredEvent | undefined> = { undecodable: undefined, refused: undefined };

/** Appends a copy of the stream's last MemoryRecorded, changed by `change`, behind the commands' back. */
async function appendPoison(subject: string, change: (data: Record<string, unknown>) => void): Promise<StoredEvent> {
  const stream = subjectStreamName('acme', subject);
  const [last] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  const data = { ...(last!.data as Record<string, unknown>), memoryId: `m-poison-${subject}` };
  change(data);
  await store.append(stream, [{ id: crypto.randomUUID(), type: 'MemoryRecorded', data, metadata: last!.metadata }], {
    expectedRevision: last!.streamRevision,
  });
  const [stored] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
  return stored!;
}

const recall = (key: string, subject: string) => t.request('GET', `/v1/subjects/${subject}/recall`, { key });

async function until<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

beforeAll(async () => {
  t = await startTestService('api_projection_faults', { config: { consolidationWorkers: 0 } });
  store = await openPostgresEventStore(t.database.url, { migrate: false });
  keys = { acme: await t.key('acme', 'writer'), globex: await t.key('globex', 'writer'), auditor: await t.key('acme', 'auditor') };
  for (const [key, subject] of [
    [keys.acme, 'good'],
    [keys.acme, 'poisoned'],
    [keys.acme, 'refused'],
    [keys.globex, 'other'],
  ] as const) {
    const recorded = await t.request('POST', `/v1/subjects/${subject}/memories`, { key, body: entry('email') });
    expect(recorded.status, recorded.text).toBe(201);
  }
  // PostgreSQL has no year 0 (this no longer decodes), and sequence is an int4 column (this decodes, and the database refuses it).
  poison.undecodable = await appendPoison('poisoned', (data) => (data.validFrom = '0000-01-01T00:00:00.000Z'));
  poison.refused = await appendPoison('refused', (data) => (data.sequence = 2 ** 31));
}, 120_000);
afterAll(async () => {
  await store?.close();
  await t?.close();
});

describe('a poison event in the log', () => {
  it('is passed over by the running projector: other subjects and tenants are served, also what is written after it', async () => {
    const later = await t.request('POST', '/v1/subjects/other/memories', {
      key: keys.globex,
      body: entry('sms', { key: 'delivery.channel' }),
    });
    expect(later.status, later.text).toBe(201);
    const other = await recall(keys.globex, 'other');
    expect(other.status, other.text).toBe(200);
    expect(other.body.items.map((i: { memoryId?: string }) => i.memoryId)).toContain(later.body.memoryId);
    expect((await recall(keys.acme, 'good')).status).toBe(200);
    const ready = await until(async () => {
      const r = await t.request('GET', '/readyz');
      return r.status === 200 ? r : undefined;
    }, '/readyz');
    // The undecodable event is a fault of every read model; the refused row is the memory read model's.
    expect(ready.body.projections).toEqual([
      expect.objectContaining({ projection: 'memory', faults: 2 }),
      expect.objectContaining({ projection: 'conflicts_trust', faults: 1 }),
      expect.objectContaining({ projection: 'candidates', faults: 1 }),
    ]);
    const metrics = (await t.request('GET', '/metrics')).text;
    expect(metrics).toMatch(/^memledger_projection_faults\{projection="memory"\} 2$/m);
    expect(metrics).toMatch(/^memledger_projection_faults\{projection="conflicts_trust"\} 1$/m);
  });

  it('refuses the reads of a subject whose stream holds an event that does not decode, naming it', async () => {
    const event = poison.undecodable!;
    for (const response of [
      await recall(keys.acme, 'poisoned'),
      await t.request('GET', `/v1/subjects/poisoned/as-of?systemTime=${new Date().toISOString()}`, { key: keys.auditor }),
    ]) {
      expect(response.status, response.text).toBe(409);
      expect(problemOf(response)).toMatchObject({ code: 'undecodable_event', eventId: event.id, streamRevision: event.streamRevision });
    }
  });

  it('refuses the reads of a subject the projection passed an event of, naming the event and why', async () => {
    const event = poison.refused!;
    const response = await recall(keys.acme, 'refused');
    expect(response.status, response.text).toBe(409);
    expect(problemOf(response)).toMatchObject({ code: 'projection_fault', field: 'subject' });
    expect(response.body.faults).toEqual([
      expect.objectContaining({
        eventId: event.id,
        streamRevision: event.streamRevision,
        eventType: 'MemoryRecorded',
        code: 'database_refused:22003',
      }),
    ]);
    // As of a time before the poison event the answer is whole; from its commit on it is not.
    const asOf = (systemTime: Date) =>
      t.request('GET', `/v1/subjects/refused/as-of?systemTime=${encodeURIComponent(systemTime.toISOString())}`, { key: keys.auditor });
    const earlier = await asOf(new Date(event.recordedAt.getTime() - 1));
    expect(earlier.status, earlier.text).toBe(200);
    expect(earlier.body.beliefs).toHaveLength(1);
    expect((await asOf(event.recordedAt)).status).toBe(409);
  });

  it('the CLI says so too (exit 3), and a rebuild passes the poison again, recording the same faults', async () => {
    const cliRecall = await runCli(['recall', '--tenant', 'acme', '--subject', 'refused'], t.env);
    expect(cliRecall.code, cliRecall.stderr).toBe(3);
    expect(JSON.parse(cliRecall.stderr)).toMatchObject({ error: 'projection_fault', field: 'subject' });

    const rebuild = await runCli(['projections', 'rebuild'], t.env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    const status = await runCli(['projections', 'status'], t.env);
    expect(status.code, status.stderr).toBe(0);
    const [memory] = JSON.parse(status.stdout);
    expect(memory.active.schema).toBe(JSON.parse(rebuild.stdout)[0].schema);
    expect(memory.active.faults.count).toBe(2);
    expect(memory.active.faults.first.map((f: { eventId: string }) => f.eventId)).toEqual([poison.undecodable!.id, poison.refused!.id]);
    expect((await recall(keys.globex, 'other')).status).toBe(200);
    expect((await recall(keys.acme, 'poisoned')).status).toBe(409);
  }, 120_000);
});
