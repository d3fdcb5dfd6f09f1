// Ordering under concurrency: 8 writers, each a separate store instance (its
// own connections), append to their own streams while a subscriber and a
// paging reader follow the global log. Every committed event must arrive
// exactly once, with strictly increasing positions.
//
// The seeds vary batch sizes and pauses so that transactions of very
// different sizes overlap: a big batch takes its positions early and commits
// late, while small ones commit around it. A reader that orders by insertion
// position alone and checkpoints on it skips the big batch's events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  comparePositions,
  type AppendResult,
  type EventStore,
  type Position,
  type StoredEvent,
} from '../../src/infrastructure/event-store/port.js';
import { newEvents, prng, type EventStoreContractTarget, type runNames } from './event-store-fixtures.js';

const WRITERS = 8;
const APPENDS_PER_WRITER = 24;
const SEEDS = [11, 23, 37];

export function describeOrderingUnderConcurrency(
  target: EventStoreContractTarget,
  subscriberStore: () => EventStore,
  names: ReturnType<typeof runNames>,
): void {
  describe('ordering under concurrency', () => {
    let writers: EventStore[] = [];

    beforeAll(async () => {
      writers = await Promise.all(Array.from({ length: WRITERS }, () => target.open()));
    });
    afterAll(async () => {
      await Promise.all(writers.map((writer) => writer.close()));
    });

    for (const seed of SEEDS) {
      it(`${WRITERS} writers, one subscriber, one paging reader: every event once, in order (seed ${seed})`, async () => {
        const prefix = names.casePrefix();
        const filter = { streamPrefixes: [prefix] };
        const random = prng(seed);
        const store = subscriberStore();

        const subscription = store.subscribeAll({ filter });
        const received: StoredEvent[] = [];

        const committed: string[] = [];
        const singleEventResults: AppendResult[] = [];
        // Plans are drawn up front so each seed is the same workload every run.
        const plans = writers.map((_, w) =>
          Array.from({ length: APPENDS_PER_WRITER }, () => ({
            // Mostly small batches, sometimes a large one that commits late.
            size: random() < 0.15 ? 100 + Math.floor(random() * 300) : 1 + Math.floor(random() * 4),
            pause: random() < 0.5 ? 0 : Math.floor(random() * 4),
            stream: `${prefix}w${w}-${Math.floor(random() * 3)}`,
          })),
        );
        const writing = Promise.all(
          writers.map(async (writer, w) => {
            const revisions = new Map<string, number>();
            for (const plan of plans[w]!) {
              const batch = newEvents(plan.size, `ContractOrdered${w}`);
              const known = revisions.get(plan.stream);
              const result = await writer.append(plan.stream, batch, { expectedRevision: known ?? 'no_stream' });
              revisions.set(plan.stream, result.nextExpectedRevision);
              committed.push(...batch.map((event) => event.id));
              if (plan.size === 1) singleEventResults.push(result);
              if (plan.pause > 0) await sleep(plan.pause);
            }
          }),
        );
        // Readers stop at a marker appended after every writer is done: in a
        // correct log it comes after all of their events.
        const marker = newEvents(1, 'ContractOrderingEnd');
        const paged = followByPaging(store, filter, marker[0]!.id);
        const consuming = (async () => {
          for await (const event of subscription) {
            if (event.id === marker[0]!.id) break;
            received.push(event);
          }
        })();
        await writing;
        await writers[0]!.append(`${prefix}end`, marker, { expectedRevision: 'no_stream' });
        await consuming;
        const pagedEvents = await paged;

        const expected = new Set(committed);
        for (const [reader, observed] of [
          ['subscriber', received],
          ['paging reader', pagedEvents],
        ] as const) {
          const ids = observed.map((event) => event.id);
          const distinct = new Set(ids);
          expect(ids.length - distinct.size, `${reader}: events received twice`).toBe(0);
          expect(committed.filter((id) => !distinct.has(id)).length, `${reader}: committed events never received`).toBe(0);
          expect(ids.filter((id) => !expected.has(id)).length, `${reader}: events nobody appended`).toBe(0);
          const backwards = observed.findIndex((event, i) => i > 0 && comparePositions(observed[i - 1]!.position, event.position) >= 0);
          expect(backwards, `${reader}: first position not above the one before`).toBe(-1);
        }
        // Per stream, revisions arrive in order without gaps.
        const lastRevision = new Map<string, number>();
        for (const event of received) {
          expect(event.streamRevision).toBe((lastRevision.get(event.stream) ?? -1) + 1);
          lastRevision.set(event.stream, event.streamRevision);
        }
        // A single-event append reports the position the readers saw for its event.
        const seen = new Set(received.map((event) => `${event.position.commit}/${event.position.prepare}`));
        expect(singleEventResults.filter((r) => !seen.has(`${r.position.commit}/${r.position.prepare}`))).toEqual([]);
      });
    }
  });
}

/** A checkpointing reader: readAll after the last position seen, until it reads the marker. */
async function followByPaging(store: EventStore, filter: { streamPrefixes: string[] }, marker: string): Promise<StoredEvent[]> {
  const seen: StoredEvent[] = [];
  let after: Position | undefined;
  for (;;) {
    const page = await store.readAll({ after, maxCount: 64, filter });
    for (const event of page) {
      if (event.id === marker) return seen;
      seen.push(event);
    }
    if (page.length > 0) after = page[page.length - 1]!.position;
    else await sleep(1);
  }
}
