// An idempotency key names a command on one subject: the same key sent for
// two subjects (of one tenant or of two) is two commands, on both stores.
// Event ids derive from the stream and the key, so no two streams ever share
// one; before, PostgreSQL refused the second (ids are unique store-wide:
// idempotency_conflict, across tenants too) while EventStoreDB, which checks
// ids per stream, wrote it.
import { describe, expect, it } from 'vitest';
import { useLedgerOn } from '../support/ledger-on-store.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';

const entry = (text: string) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  source: { type: 'user_assertion', refs: [`msg://${text}`] },
});

describe.each(['postgres', 'esdb'] as const)('one idempotency key on two subjects (%s)', (store) => {
  const world = useLedgerOn(store, `key_scope_${store}`);

  it('records on each subject, and a retry on each is answered with its own result', async () => {
    const targets = [
      { tenant: 'acme', subject: 'alice' },
      { tenant: 'acme', subject: 'bob' },
      { tenant: 'globex', subject: 'alice' },
    ];
    const outcomes = [];
    for (const target of targets)
      outcomes.push(await recordMemory(world.ledger, { ...target, idempotencyKey: 'order-1' }, entry(target.subject)));
    for (const outcome of outcomes) expect(outcome.ok && outcome.result).toMatchObject({ decision: 'NEW' });
    for (const [i, target] of targets.entries()) {
      const first = outcomes[i]!;
      if (!first.ok) throw new Error('the first record was refused');
      // The same request again is a replay of the first one's answer, and says so.
      expect(await recordMemory(world.ledger, { ...target, idempotencyKey: 'order-1' }, entry(target.subject))).toEqual({
        ok: true,
        result: { ...first.result, replayed: true },
      });
      expect(await world.ledger.eventStore.readStream(subjectStreamName(target.tenant, target.subject))).toHaveLength(1);
    }
  });
});
