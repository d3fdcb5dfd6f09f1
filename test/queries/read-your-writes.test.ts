// "In the CLI, a query first catches the projections up, so a user reads
// their own writes" — even while a transaction elsewhere on the server holds
// the log's stable head back behind the user's committed write.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { catchUp, catchUpWith } from '../../src/queries/read-side.js';
import { recall } from '../../src/queries/recall/recall.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
beforeAll(async () => {
  world = await openReadWorld('queries_ryow');
});
afterAll(async () => world?.close());

describe('read your own writes', () => {
  it("catchUpWith waits for the projections to reach the caller's write; a plain catch-up to the stable head does not", async () => {
    const c = ctx('ryow');
    ok(
      await recordMemory(world.t.ledger, c, {
        kind: 'profile',
        key: 'language',
        value: { type: 'text', text: 'zh' },
        source: { type: 'user_assertion' },
      }),
    );
    await world.catchUp(c);
    // A transaction on the same server that holds an xid: everything committed after it is beyond the stable head.
    const blocker = new pg.Client({ connectionString: world.t.database.url });
    await blocker.connect();
    try {
      await blocker.query('begin');
      await blocker.query('select pg_current_xact_id()');
      const written = ok(
        await recordMemory(world.t.ledger, c, {
          kind: 'profile',
          key: 'notification.preference',
          value: { type: 'text', text: 'sms' },
          source: { type: 'user_assertion' },
        }),
      );
      await catchUp(world.read);
      const before = await recall(world.read, { tenant: 'acme', subject: 'ryow' });
      expect(before.items.map((i) => (i.type === 'memory' ? i.memoryId : ''))).not.toContain(written.memoryId);

      const caughtUp = catchUpWith(world.read, [subjectStreamName('acme', 'ryow')]);
      await blocker.query('commit');
      await caughtUp;
      const after = await recall(world.read, { tenant: 'acme', subject: 'ryow' });
      expect(after.items.map((i) => (i.type === 'memory' ? i.memoryId : ''))).toContain(written.memoryId);
    } finally {
      await blocker.end();
    }
  });
});
