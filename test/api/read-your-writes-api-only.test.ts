// Read your writes in a process that runs no projector (an API-only serve
// worker, issue 20): it learns checkpoints from the catch-up alone, and must
// never wait for a report of its own projector, which never comes. Before, a
// recall there waited followerWaitMs (5 s by default) after every write but
// the first: the catch-up had filled in checkpoints, and the wait took them
// for its own projector's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadYourWrites } from '../../src/api/service/read-your-writes.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { comparePositions, parsePosition } from '../../src/infrastructure/event-store/port.js';
import {
  catchUpProjection,
  followProjection,
  openProjectionDatabase,
  PROJECTIONS,
  type ProjectionDatabase,
} from '../../src/projections/index.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';

let t: TestLedger;
let projections: ProjectionDatabase;
const stop = new AbortController();
let following: Promise<unknown> | undefined;

beforeAll(async () => {
  t = await openTestLedger('ryw_api_only');
  projections = await openProjectionDatabase(t.ledger.databaseUrl);
  // The worker that runs the background work: every projection followed there, reporting to its own freshness.
  const owner = new ReadYourWrites(t.ledger.eventStore, projections.db, PROJECTIONS);
  following = Promise.all(
    PROJECTIONS.map((definition) =>
      followProjection(projections.db, t.ledger.eventStore, definition, { signal: stop.signal, onBatch: owner.onBatch }),
    ),
  );
});
afterAll(async () => {
  stop.abort();
  await following?.catch(() => undefined);
  await projections?.close();
  await t?.close();
});

const entry = (text: string) => ({
  kind: 'semantic',
  key: `order.${text}`,
  value: { type: 'text', text },
  source: { type: 'verified_tool_fact', refs: [`tool://orders/${text}`] },
});

describe('read your writes without a projector of its own', () => {
  it('waits for each write through the catch-up, never for a report of its own projector', async () => {
    // Its own projector's report is waited for ten minutes: were it waited for, the test's timeout would say so.
    const apiOnly = new ReadYourWrites(t.ledger.eventStore, projections.db, PROJECTIONS, 600_000);
    const stream = subjectStreamName('acme', 'api-only');
    for (const text of ['o1', 'o2', 'o3']) {
      const recorded = await recordMemory(t.ledger, { tenant: 'acme', subject: 'api-only' }, entry(text));
      expect(recorded.ok).toBe(true);
      const { position } = await t.ledger.subjects.load(stream);
      await apiOnly.awaitPosition(position!);
      // Every read model has applied the write by then.
      for (const definition of PROJECTIONS) {
        const caughtUp = await catchUpProjection(projections.db, t.ledger.eventStore, definition, { until: position!, waitMs: 0 });
        expect(comparePositions(parsePosition(caughtUp.checkpoint!), position!)).toBeGreaterThanOrEqual(0);
      }
    }
  }, 120_000);
});
