// A command whose append timed out on EventStoreDB although the write landed
// (its commit outran the server's timeout), and whose first retry arrives
// while the write still replicates (the server drops it: another timeout).
// AppendOutcomeUnknown is retryable: the one command loop
// (src/commands/stream/handle-commands.ts) reloads, finds the command in the
// stream's window and answers with its original result; nothing is written
// twice (a raw client timeout, before the mapping, failed the command).
import { expect, it } from 'vitest';
import { useLedgerOn } from '../support/ledger-on-store.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';

const world = useLedgerOn('esdb', 'append_outcome');

const entry = (text: string) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  source: { type: 'user_assertion', refs: [`msg://${text}`] },
});

it('retries an append of unknown outcome as it was and answers with the original result', async () => {
  const context = { tenant: 'acme', subject: 'timed-out', idempotencyKey: 'order-1' };
  const stream = subjectStreamName('acme', 'timed-out');
  await recordMemory(world.ledger, { ...context, idempotencyKey: 'before' }, entry('email'));
  world.double.faults.failNextAppend({ answer: 'timeout', written: true, inFlightMs: 150 });

  const outcome = await recordMemory(world.ledger, context, entry('sms'));
  expect(outcome.ok && outcome.result).toMatchObject({ decision: 'SUPERSEDES' });
  const stored = await world.ledger.eventStore.readStream(stream);
  expect(stored.map((e) => e.type)).toEqual(['MemoryRecorded', 'MemorySuperseded', 'MemoryRecorded']);
  // The command's retry (same key) is answered from the log: the very same result.
  expect(await recordMemory(world.ledger, context, entry('sms'))).toEqual(outcome);
  expect(await world.ledger.eventStore.readStream(stream)).toHaveLength(3);
});
