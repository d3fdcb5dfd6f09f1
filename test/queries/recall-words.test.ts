// The README's own example, consolidated by the background worker (issue
// 15): "Prefers SMS for logistics updates; never phone calls." — the
// negation and what it applies to are must-preserve facts of the words, and
// what recall serves from the published summary still says "never phone
// calls". Recall serves only words the gate read: a claim's statement.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { runWorker } from '../../src/commands/consolidation/worker.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { recall } from '../../src/queries/recall/recall.js';
import { consolidationServices } from './support/services.js';
import { ctx, ok, openReadWorld, type ReadWorld } from './support/read-world.js';

let world: ReadWorld;
beforeAll(async () => {
  world = await openReadWorld('queries_recall_words');
});
afterAll(async () => world?.close());

it("the README's example, consolidated by the worker, still serves never phone calls", async () => {
  const c = ctx('user-7');
  ok(
    await recordMemory(world.t.ledger, c, {
      kind: 'profile',
      key: 'notification.preference',
      value: { type: 'text', text: 'sms' },
      source: { type: 'user_assertion', refs: ['msg://thread-9/turn-14'] },
      content: 'Prefers SMS for logistics updates; never phone calls.',
    }),
  );
  // The worker finds due subjects in the log, which shows a commit once no earlier transaction is in flight: wait for it first.
  await world.catchUp(c);
  const stats = await runWorker(world.t.ledger, await consolidationServices(), { threshold: 1, idleExitMs: 0, pollMs: 10 });
  expect(stats).toMatchObject({ switched: 1, failed: 0, errors: 0 });
  await world.catchUp(c);
  const answer = await recall(world.read, { tenant: 'acme', subject: 'user-7' });
  expect(answer.source).toBe('summary');
  const [claim, ...rest] = answer.items;
  expect(rest).toEqual([]);
  expect(claim).toMatchObject({
    type: 'claim',
    key: 'notification.preference',
    statement: 'Prefers SMS for logistics updates; never phone calls.',
    // The words say what the typed statement says ("sms"), so they are what an agent reads.
    text: '[summary · 1 source] Prefers SMS for logistics updates; never phone calls.',
    value: { type: 'text', text: 'sms' },
  });
  // The gate counted the typed statement and the negation of the words.
  const alias = (await world.t.ledger.subjects.load(subjectStreamName('acme', 'user-7'))).state.alias!;
  expect((await readArtifact(world.t.ledger.eventStore, alias.artifactId)).gatePassed?.mustPreserveCount).toBe(2);
});
