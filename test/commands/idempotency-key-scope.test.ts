// An idempotency key names a command on one subject: the same key sent for
// two subjects (of one tenant or of two) is two commands, on both stores.
// Event ids derive from the stream and the key, so no two streams ever share
// one; before, PostgreSQL refused the second (ids are unique store-wide:
// idempotency_conflict, across tenants too) while EventStoreDB, which checks
// ids per stream, wrote it.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startEsdbWireDouble, type EsdbWireDouble } from '../support/esdb-wire-double/server.js';

const entry = (text: string) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  source: { type: 'user_assertion', refs: [`msg://${text}`] },
});

describe.each(['postgres', 'esdb'] as const)('one idempotency key on two subjects (%s)', (store) => {
  let double: EsdbWireDouble | undefined;
  let database: TestDatabase;
  let ledger: OpenLedger;

  beforeAll(async () => {
    if (store === 'esdb') double = await startEsdbWireDouble({ serverFeatures: 'advertise-batch-append' });
    database = await createTestDatabase(`key_scope_${store}`);
    ledger = await openLedger({
      env: {
        ...(double ? { MEMLEDGER_EVENTSTORE_URL: double.url } : {}),
        MEMLEDGER_DATABASE_URL: database.url,
        MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'),
      },
    });
  });
  afterAll(async () => {
    await ledger?.close();
    await database?.drop();
    await double?.close();
  });

  it('records on each subject, and a retry on each is answered with its own result', async () => {
    const targets = [
      { tenant: 'acme', subject: 'alice' },
      { tenant: 'acme', subject: 'bob' },
      { tenant: 'globex', subject: 'alice' },
    ];
    const outcomes = [];
    for (const target of targets)
      outcomes.push(await recordMemory(ledger, { ...target, idempotencyKey: 'order-1' }, entry(target.subject)));
    for (const outcome of outcomes) expect(outcome.ok && outcome.result).toMatchObject({ decision: 'NEW' });
    for (const [i, target] of targets.entries()) {
      const first = outcomes[i]!;
      if (!first.ok) throw new Error('the first record was refused');
      // The same request again is a replay of the first one's answer, and says so.
      expect(await recordMemory(ledger, { ...target, idempotencyKey: 'order-1' }, entry(target.subject))).toEqual({
        ok: true,
        result: { ...first.result, replayed: true },
      });
      expect(await ledger.eventStore.readStream(subjectStreamName(target.tenant, target.subject))).toHaveLength(1);
    }
  });
});
