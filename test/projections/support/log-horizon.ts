// The PostgreSQL store shows a committed event in the global log only once
// every older transaction on the server has ended (log-order.ts), and test
// files share one server: so tests that must see their own writes catch up
// to those writes' positions, or wait for the head to show them.
import type { Kysely } from 'kysely';
import { comparePositions, type EventStore, type Position } from '../../../src/infrastructure/event-store/port.js';
import { catchUpProjections } from '../../../src/projections/index.js';

/** The position of the last event of these streams (stream reads show writes at once). */
export async function lastPositionOf(store: EventStore, streams: readonly string[]): Promise<Position | undefined> {
  let last: Position | undefined;
  for (const stream of streams) {
    const [event] = await store.readStream(stream, { direction: 'backwards', maxCount: 1 });
    if (event && (!last || comparePositions(event.position, last) > 0)) last = event.position;
  }
  return last;
}

/** Catches the projections up to (at least) everything written to these streams. */
export async function catchUpWith(store: EventStore, db: Kysely<any>, streams: readonly string[]): Promise<void> {
  const until = await lastPositionOf(store, streams);
  await catchUpProjections(store, db, until ? { until } : {});
}

/** Waits until the head of the log shows `position`. */
export async function logShows(store: EventStore, position: Position): Promise<void> {
  for (;;) {
    const head = await store.headPosition();
    if (head && comparePositions(head, position) >= 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
