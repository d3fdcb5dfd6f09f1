// The scheduler finds subjects with new events in the global log: each poll
// reads on from where the last one examined it, so the recall records
// appended meanwhile (one per recall, none a subject's) are passed over once.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DueSubjects } from '../../src/commands/consolidation/due-subjects.js';
import { recordMemory } from '../../src/commands/record.js';
import { recallStreamName } from '../../src/domain/events/stream-names.js';
import { comparePositions, type EventStore, type Position } from '../../src/infrastructure/event-store/port.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { channelEntry as entry } from './support.js';

let t: TestLedger;
beforeAll(async () => {
  t = await openTestLedger('due_subjects');
});
afterAll(async () => {
  await t?.close();
});

describe('due subjects', () => {
  it('reads the log on from where it examined it, past the events of other streams', async () => {
    const reads: Array<Position | undefined> = [];
    const store = t.ledger.eventStore;
    const noting = new Proxy(store, {
      get: (target, property: keyof EventStore) =>
        property === 'readPage' || property === 'readAll'
          ? (options: { after?: Position }) => (reads.push(options.after), (target[property] as (o: unknown) => unknown)(options))
          : (target[property] as (...args: unknown[]) => unknown).bind(target),
    });
    const finder = new DueSubjects(noting, t.ledger.subjects, 'acme');
    const recorded = await recordMemory(t.ledger, { tenant: 'acme', subject: 'due-1' }, entry('sms'));
    expect(recorded.ok).toBe(true);
    const other = await store.append(
      recallStreamName('acme', 'due-1'),
      Array.from({ length: 5 }, () => ({ id: randomUUID(), type: 'Noted', data: {}, metadata: { schemaVersion: 1 } })),
      { expectedRevision: 'any' },
    );
    await store.awaitCommitted();
    expect((await finder.find(1)).map((d) => d.subject)).toEqual(['due-1']);
    reads.length = 0;
    expect((await finder.find(1)).map((d) => d.subject)).toEqual(['due-1']);
    expect(reads.length).toBeGreaterThan(0);
    for (const after of reads) expect(after && comparePositions(after, other.position)).toBeGreaterThanOrEqual(0);
  });
});
