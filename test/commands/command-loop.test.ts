// The one command loop (src/commands/stream): an append error that says it may
// be retried is retried like a conflict, and a command whose append did land
// is answered with its original result; other errors are not retried.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/commands/ledger.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import type { EventStore } from '../../src/infrastructure/event-store/port.js';
import { SubjectRepository } from '../../src/reads/streams/subject-repository.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';

let t: TestLedger;
beforeAll(async () => {
  t = await openTestLedger('command_loop');
});
afterAll(async () => {
  await t?.close();
});

/** The real store, whose next append fails once: before writing, or after writing (the answer lost on the way back). */
function failingOnce(store: EventStore, when: 'before' | 'after', error: () => Error): EventStore & { failures: number } {
  const wrapped = {
    failures: 0,
    append: async (...args: Parameters<EventStore['append']>) => {
      if (wrapped.failures > 0) return store.append(...args);
      wrapped.failures++;
      if (when === 'after') await store.append(...args);
      throw error();
    },
    readStream: store.readStream.bind(store),
    readAll: store.readAll.bind(store),
    readPage: store.readPage.bind(store),
    countAll: store.countAll.bind(store),
    headPosition: store.headPosition.bind(store),
    awaitCommitted: store.awaitCommitted.bind(store),
    subscribeAll: store.subscribeAll.bind(store),
    close: store.close.bind(store),
  };
  return wrapped;
}

const unknownOutcome = () => Object.assign(new Error('the connection dropped before the store answered'), { retryable: true });
const entry = (text: string) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  source: { type: 'user_assertion', refs: [`msg://${text}`] },
});

async function types(subject: string): Promise<string[]> {
  return (await t.ledger.eventStore.readStream(subjectStreamName('acme', subject))).map((e) => e.type);
}

describe('the command loop', () => {
  it('answers a command whose append landed but whose answer was lost with its original result, appending once', async () => {
    const store = failingOnce(t.ledger.eventStore, 'after', unknownOutcome);
    const ledger: Ledger = { ...t.ledger, eventStore: store };
    const answer = await recordMemory(ledger, { tenant: 'acme', subject: 'lost-answer', idempotencyKey: 'k-1' }, entry('sms'));
    expect(store.failures).toBe(1);
    expect(answer).toMatchObject({ ok: true, result: { decision: 'NEW', sequence: 1, revision: 0 } });
    expect(await types('lost-answer')).toEqual(['MemoryRecorded']);
    expect(await recordMemory(t.ledger, { tenant: 'acme', subject: 'lost-answer', idempotencyKey: 'k-1' }, entry('sms'))).toEqual(answer);
  });

  it('retries an append that failed before writing and says it may be retried', async () => {
    const store = failingOnce(t.ledger.eventStore, 'before', unknownOutcome);
    const answer = await recordMemory({ ...t.ledger, eventStore: store }, { tenant: 'acme', subject: 'retried' }, entry('sms'));
    expect(store.failures).toBe(1);
    expect(answer).toMatchObject({ ok: true, result: { decision: 'NEW', revision: 0 } });
    expect(await types('retried')).toEqual(['MemoryRecorded']);
  });

  it('does not retry other errors: they reach the caller and nothing is appended', async () => {
    const store = failingOnce(t.ledger.eventStore, 'before', () => new Error('disk full'));
    await expect(recordMemory({ ...t.ledger, eventStore: store }, { tenant: 'acme', subject: 'failed' }, entry('sms'))).rejects.toThrow(
      'disk full',
    );
    expect(await types('failed')).toEqual([]);
  });

  it('keeps as its fold after an append what a fold of the log gives, from what it sent (not decoded again)', async () => {
    const stream = subjectStreamName('acme', 'sent-fold');
    const here: Ledger = { ...t.ledger, subjects: new SubjectRepository(t.ledger.eventStore) };
    const context = { tenant: 'acme', subject: 'sent-fold' };
    const first = await recordMemory(here, context, entry('sms'));
    await recordMemory(here, context, entry('email')); // supersedes
    await recordMemory(here, { ...context, idempotencyKey: 'k-sent' }, { ...entry('post'), key: 'contact.channel' });
    await recordMemory(here, { ...context, idempotencyKey: 'k-sent' }, { ...entry('post'), key: 'contact.channel' }); // replayed
    if (!first.ok) throw new Error('expected the first record to be taken');
    const held = await here.subjects.latest(stream);
    const fromLog = await new SubjectRepository(t.ledger.eventStore, 0).load(stream);
    expect(held.revision).toBe(fromLog.revision);
    expect(held.state).toEqual(fromLog.state);
    expect([...held.commands]).toEqual([...fromLog.commands]);
  });

  it('opens the entry a write may refine from its own MemoryRecorded, however far back it was written', async () => {
    const stream = subjectStreamName('acme', 'far-back');
    const reads: Array<{ fromRevision?: number; maxCount?: number }> = [];
    const counting: EventStore = {
      ...failingOnce(t.ledger.eventStore, 'before', () => new Error('unused')),
      append: t.ledger.eventStore.append.bind(t.ledger.eventStore),
      readStream: (name, options) => (name === stream && reads.push({ ...options }), t.ledger.eventStore.readStream(name, options)),
    };
    const here: Ledger = { ...t.ledger, eventStore: counting, subjects: new SubjectRepository(counting) };
    const context = { tenant: 'acme', subject: 'far-back' };
    const worded = (text: string) => ({ ...entry('sms'), value: { type: 'text', text } });
    const first = await recordMemory(here, context, worded('text me'));
    for (let i = 0; i < 12; i++) await recordMemory(here, context, { ...entry(`fact-${i}`), key: `fact.f${i}` });
    reads.length = 0;
    // Its words and more: a refinement of the first entry, which the write opens to tell.
    const refined = await recordMemory(here, context, {
      ...worded('text me after noon'),
      source: { type: 'user_assertion', refs: ['msg://2'] },
    });
    if (!first.ok) throw new Error('expected the first record to be taken');
    expect(refined).toMatchObject({ ok: true, result: { decision: 'REFINEMENT', refines: [first.result.memoryId] } });
    expect(reads).toEqual([{ fromRevision: 0, maxCount: 1 }]);
  });

  it('decides a record against the fold it holds without reading the stream, and after another process wrote, against the stream as it is', async () => {
    const stream = subjectStreamName('acme', 'held');
    const reads: string[] = [];
    const counting: EventStore = {
      ...failingOnce(t.ledger.eventStore, 'before', () => new Error('unused')),
      append: t.ledger.eventStore.append.bind(t.ledger.eventStore),
      readStream: (name, options) => (reads.push(name), t.ledger.eventStore.readStream(name, options)),
    };
    // This process: its own folds, as the service keeps them.
    const here: Ledger = { ...t.ledger, eventStore: counting, subjects: new SubjectRepository(counting) };
    const context = { tenant: 'acme', subject: 'held' };
    await recordMemory(here, context, entry('sms'));
    expect(reads.filter((name) => name === stream)).toHaveLength(1);
    reads.length = 0;
    expect(await recordMemory(here, context, { ...entry('email'), key: 'contact.channel' })).toMatchObject({
      ok: true,
      result: { revision: 1 },
    });
    expect(reads.filter((name) => name === stream)).toEqual([]);
    // Another process supersedes the preference: this one's fold is outdated.
    const elsewhere: Ledger = { ...t.ledger, subjects: new SubjectRepository(t.ledger.eventStore) };
    const theirs = await recordMemory(elsewhere, context, entry('email'));
    expect(theirs).toMatchObject({ ok: true, result: { decision: 'SUPERSEDES' } });
    // Its append expected the old revision: it reads the stream and decides again, superseding their entry, not the first.
    const ours = await recordMemory(here, context, entry('post'));
    if (!ours.ok || theirs.ok !== true) throw new Error('expected both records to be taken');
    expect(ours.result).toMatchObject({ decision: 'SUPERSEDES', supersedes: [theirs.result.memoryId] });
    expect(reads.filter((name) => name === stream).length).toBeGreaterThan(0);
  });
});
