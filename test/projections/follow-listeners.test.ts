// A follower woken by the log again and again leaves nothing behind on the
// service's stop signal: each wait for the log ends its timer and its abort
// listener when the log cuts it short. Before, each kept both for the idle
// wait (5 s), and under load `serve` passed the signal's listener limit
// (MaxListenersExceededWarning: 101 abort listeners).
import { getEventListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMemory } from '../../src/commands/record.js';
import { followProjection, memoryProjection, openProjectionDatabase, type ProjectionDatabase } from '../../src/projections/index.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';

let t: TestLedger;
let projections: ProjectionDatabase;
beforeAll(async () => {
  t = await openTestLedger('follow_listeners');
  projections = await openProjectionDatabase(t.ledger.databaseUrl);
});
afterAll(async () => {
  await projections?.close();
  await t?.close();
});

describe('a follower woken often', () => {
  it('keeps at most the listener of its current wait on the stop signal', async () => {
    const stop = new AbortController();
    let batches = 0;
    const following = followProjection(projections.db, t.ledger.eventStore, memoryProjection, {
      signal: stop.signal,
      onBatch: () => void (batches += 1),
    });
    try {
      for (let i = 0; i < 30; i++) {
        const recorded = await recordMemory(
          t.ledger,
          { tenant: 'acme', subject: 'woken' },
          {
            kind: 'semantic',
            key: `order.o${i}`,
            value: { type: 'text', text: `status ${i}` },
            source: { type: 'verified_tool_fact', refs: [`tool://o/${i}`] },
          },
        );
        expect(recorded.ok).toBe(true);
        const before = batches;
        for (let n = 0; n < 500 && batches === before; n++) await sleep(10);
      }
      expect(batches).toBeGreaterThanOrEqual(30);
      expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1);
    } finally {
      stop.abort();
      await following;
    }
  });
});
