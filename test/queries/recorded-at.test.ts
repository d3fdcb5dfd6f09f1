// recordedAt through the queries that rest on it, on both stores: "as of" a
// batch's first event shows the whole batch or none of it, and replay(T) ==
// asOf(T) although the clock stepped back 5 s between two commands. On
// EventStoreDB the server's clock (the double's) ticks a millisecond at every
// event it stamps and steps back; on PostgreSQL a step back is what the
// stored stamps lying later look like to the next append.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import type { StoredEvent } from '../../src/infrastructure/event-store/port.js';
import { asOf } from '../../src/queries/as-of.js';
import { catchUpWith, openReadSide, type OpenReadSide } from '../../src/queries/read-side.js';
import { replay } from '../../src/queries/replay/replay.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { postgresClock } from '../contract/postgres-clock.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startEsdbWireDouble, type EsdbWireDouble } from '../support/esdb-wire-double/server.js';
import { SteppingClock } from '../support/stepping-clock.js';

interface World {
  readonly ledger: OpenLedger;
  readonly read: OpenReadSide;
  stepBack(ms: number): Promise<void>;
  close(): Promise<void>;
}

async function postgresWorld(): Promise<World> {
  const database = await createTestDatabase('recorded_at_pg');
  const ledger = await openLedger({
    env: { MEMLEDGER_EVENTSTORE_URL: database.url, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
  });
  const read = await openReadSide(ledger, { tokenizer: false });
  const clock = postgresClock(() => database.url);
  return { ledger, read, stepBack: (ms) => clock.stepBack(ms), close: () => closeAll(read, ledger, database) };
}

async function esdbWorld(): Promise<World> {
  const clock = new SteppingClock();
  const double: EsdbWireDouble = await startEsdbWireDouble({ serverFeatures: 'advertise-batch-append', clock: clock.now });
  const database = await createTestDatabase('recorded_at_esdb');
  const ledger = await openLedger({
    env: {
      MEMLEDGER_EVENTSTORE_URL: double.url,
      MEMLEDGER_DATABASE_URL: database.url,
      MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64'),
    },
  });
  const read = await openReadSide(ledger, { tokenizer: false });
  return {
    ledger,
    read,
    stepBack: (ms) => Promise.resolve(clock.stepBack(ms)),
    close: async () => {
      await closeAll(read, ledger, database);
      await double.close();
    },
  };
}

async function closeAll(read: OpenReadSide, ledger: OpenLedger, database: TestDatabase): Promise<void> {
  await read.close();
  await ledger.close();
  await database.drop();
}

const preference = (text: string, source: string, validFrom: string) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  source: { type: source, refs: [`msg://${text}`] },
  validFrom,
});

describe.each([
  ['PostgreSQL', postgresWorld],
  ['EventStoreDB (wire-level double)', esdbWorld],
] as const)('recordedAt on %s', (_name, open) => {
  let world: World;
  beforeAll(async () => {
    world = await open();
  });
  afterAll(async () => world?.close());

  it('as of a batch shows all of it; replay == asOf around every commit, with the clock stepped back 5 s twice', async () => {
    const context = { tenant: 'acme', subject: 'clocked' };
    const stream = subjectStreamName('acme', 'clocked');
    await recordMemory(world.ledger, context, preference('email', 'user_assertion', '2026-07-01T00:00:00Z'));
    await world.stepBack(5_000);
    // SUPERSEDES: MemorySuperseded and MemoryRecorded in one append.
    await recordMemory(world.ledger, context, preference('sms', 'user_assertion', '2026-07-10T00:00:00Z'));
    await world.stepBack(5_000);
    // CONFLICTS: MemoryRecorded and ConflictDetected in one append.
    await recordMemory(world.ledger, context, preference('phone', 'model_inference', '2026-07-11T00:00:00Z'));
    await catchUpWith(world.read, [stream]);

    const stored = await world.ledger.eventStore.readStream(stream);
    expect(stored.map((e) => e.type)).toEqual([
      'MemoryRecorded',
      'MemorySuperseded',
      'MemoryRecorded',
      'MemoryRecorded',
      'ConflictDetected',
    ]);
    const batches = new Map<string, StoredEvent[]>();
    for (const event of stored) batches.set(event.metadata.causationId!, [...(batches.get(event.metadata.causationId!) ?? []), event]);
    const query = (at: number) => ({ ...context, systemTime: new Date(at).toISOString(), validTime: '2026-07-12T00:00:00.000Z' });
    for (const batch of batches.values()) {
      const [first, last] = [batch[0]!.recordedAt.getTime(), batch[batch.length - 1]!.recordedAt.getTime()];
      expect((await asOf(world.read, query(first))).beliefs).toEqual((await asOf(world.read, query(last))).beliefs);
    }
    for (const at of new Set(stored.flatMap((e) => [-1, 0, 1].map((d) => e.recordedAt.getTime() + d)))) {
      const [fromTable, fromStream] = await Promise.all([asOf(world.read, query(at)), replay(world.read, query(at))]);
      expect(fromStream.beliefs, new Date(at).toISOString()).toEqual(fromTable.beliefs);
    }
    // Not a comparison of empty answers: the last commit believes the sms and the conflicting phone.
    const latest = await asOf(world.read, query(stored[stored.length - 1]!.recordedAt.getTime()));
    expect(latest.beliefs.length).toBeGreaterThanOrEqual(2);
  });
});
