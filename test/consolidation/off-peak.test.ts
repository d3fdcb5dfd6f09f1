// Off-peak consolidation (seed 004: consolidation is not in a hurry; run it
// in quiet periods, in batches): while the service says it is busy, a due
// subject waits, at most the longest deferral from when it was found due;
// quiet, it runs at once. The worker runs on a real ledger; only what the
// service says of its load is the test's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runWorker, type OffPeak } from '../../src/commands/consolidation/worker.js';
import { recordMemory } from '../../src/commands/record.js';
import { consolidationRunsNow } from '../../src/domain/consolidation/schedule.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { channelEntry as entry, subjectState, testServices } from './support.js';

let t: TestLedger;
beforeAll(async () => {
  t = await openTestLedger('consolidation_off_peak');
});
afterAll(async () => {
  await t?.close();
});

async function due(subject: string): Promise<void> {
  for (const text of ['sms', 'post']) expect((await recordMemory(t.ledger, { tenant: 'acme', subject }, entry(text))).ok).toBe(true);
}

/** Runs a worker for one subject of its own tenant until stopped; its report lines are kept. */
function worker(tenant: string, offPeak: OffPeak) {
  const stop = new AbortController();
  const lines: Array<Record<string, unknown>> = [];
  const done = (async () =>
    runWorker(t.ledger, await testServices(), {
      tenant,
      threshold: 2,
      pollMs: 20,
      signal: stop.signal,
      offPeak,
      report: (line) => lines.push(line),
    }))();
  return { lines, stop: async () => (stop.abort(), await done) };
}

const waitFor = async (done: () => boolean | Promise<boolean>, ms: number) => {
  for (const until = Date.now() + ms; Date.now() < until;) {
    if (await done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return done();
};

describe('off-peak consolidation', () => {
  it('the rule: at once when quiet; while busy, only once the subject has waited the longest deferral', () => {
    expect(consolidationRunsNow(1000, 1000, false, 60_000)).toBe(true);
    expect(consolidationRunsNow(1000, 60_999, true, 60_000)).toBe(false);
    expect(consolidationRunsNow(1000, 61_000, true, 60_000)).toBe(true);
    expect(consolidationRunsNow(1000, 1000, true, 0)).toBe(true);
  });

  it('a due subject waits while the service is busy and runs once it is quiet', async () => {
    const load = { busy: true };
    const w = worker('acme', { busy: () => load.busy, maxDeferMs: 60_000 });
    try {
      await due('quiet-later');
      // Many polls, all deferred: nothing runs, the subject keeps its raw entries.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(w.lines).toEqual([]);
      expect((await subjectState(t.ledger, { tenant: 'acme', subject: 'quiet-later' })).alias).toBeNull();
      load.busy = false;
      expect(await waitFor(() => w.lines.length > 0, 30_000)).toBe(true);
      expect(w.lines[0]).toMatchObject({ subject: 'quiet-later', status: 'switched' });
      // It waited from when a poll found it due (once the writes' commits showed in the log) until the quiet.
      expect(w.lines[0]!.deferredMs).toBeGreaterThan(0);
      expect((await subjectState(t.ledger, { tenant: 'acme', subject: 'quiet-later' })).alias?.coversThrough).toBe(2);
    } finally {
      await w.stop();
    }
  });

  it('never waits longer than the longest deferral, however busy the service stays', async () => {
    const w = worker('busy', { busy: () => true, maxDeferMs: 700 });
    try {
      for (const text of ['sms', 'post'])
        expect((await recordMemory(t.ledger, { tenant: 'busy', subject: 'always' }, entry(text))).ok).toBe(true);
      expect(await waitFor(() => w.lines.length > 0, 30_000)).toBe(true);
      expect(w.lines[0]).toMatchObject({ subject: 'always', status: 'switched' });
      expect(w.lines[0]!.deferredMs).toBeGreaterThanOrEqual(700);
    } finally {
      await w.stop();
    }
  });
});
