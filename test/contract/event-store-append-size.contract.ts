// Batches over the store's append limit (EventStoreDB: MaxAppendSize, 1 MiB
// by default; PostgreSQL has none): written whole, cut between commands;
// one command over the limit is AppendTooLarge and writes nothing.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { AppendTooLarge, type EventStore, type NewEvent } from '../../src/infrastructure/event-store/port.js';
import { newEvent, outcomeOf, rejectionOf, type EventStoreContractTarget, type runNames } from './event-store-fixtures.js';

const KIB = 1024;

/** An event of about `bytes` bytes of data, from the command `causationId`. */
function sized(bytes: number, causationId: string = randomUUID()): NewEvent {
  const event = newEvent('ContractSized', { blob: 'x'.repeat(bytes) });
  return { ...event, metadata: { ...event.metadata, causationId } };
}

export function describeAppendSize(target: EventStoreContractTarget, store: () => EventStore, names: ReturnType<typeof runNames>): void {
  describe('append size', () => {
    it('writes a batch larger than the append limit whole and in order; a retry of it writes nothing', async () => {
      const stream = `${names.casePrefix()}s`;
      // 1.6 MiB in commands of two events.
      const batch = Array.from({ length: 20 }, () => randomUUID()).flatMap((command) => [
        sized(40 * KIB, command),
        sized(40 * KIB, command),
      ]);
      const result = await store().append(stream, batch, { expectedRevision: 'no_stream' });
      expect(result.nextExpectedRevision).toBe(39);
      const stored = await store().readStream(stream);
      expect(stored.map((e) => e.id)).toEqual(batch.map((e) => e.id));
      expect(stored.map((e) => e.streamRevision)).toEqual(batch.map((_, i) => i));
      expect(outcomeOf(await store().append(stream, batch, { expectedRevision: 'no_stream' }))).toEqual(outcomeOf(result));
      expect(await store().readStream(stream)).toHaveLength(40);
    });

    const limit = target.capabilities?.maxAppendBytes;
    if (limit === undefined) return;

    it('refuses an event over the append limit with AppendTooLarge, and writes nothing of its batch', async () => {
      const stream = `${names.casePrefix()}s`;
      const big = sized(limit + 1);
      const error = await rejectionOf(store().append(stream, [sized(KIB), big, sized(KIB)], { expectedRevision: 'no_stream' }));
      expect(error).toBeInstanceOf(AppendTooLarge);
      expect(error).toMatchObject({ stream, eventId: big.id, limit });
      expect(await store().readStream(stream)).toEqual([]);
    });

    it('keeps the events of one command together: a command over the limit is AppendTooLarge', async () => {
      const stream = `${names.casePrefix()}s`;
      const command = randomUUID();
      const halves = [sized(Math.ceil(limit * 0.6), command), sized(Math.ceil(limit * 0.6), command)];
      const error = await rejectionOf(store().append(stream, [sized(KIB), ...halves], { expectedRevision: 'no_stream' }));
      expect(error).toBeInstanceOf(AppendTooLarge);
      expect(error).toMatchObject({ stream, eventId: halves[0]!.id });
      expect(await store().readStream(stream)).toEqual([]);
    });
  });
}
