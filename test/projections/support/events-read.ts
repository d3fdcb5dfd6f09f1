// How many events of the log a projection reads: those of its streams (the
// runtime never fetches the others, and counts only what it applied).
import { comparePositions, type EventStore, type Position } from '../../../src/infrastructure/event-store/port.js';
import { projectionFilter, type ProjectionDefinition } from '../../../src/projections/index.js';

export async function eventsRead(store: EventStore, definition: ProjectionDefinition, until?: Position): Promise<number> {
  const filter = projectionFilter(definition);
  const events = await store.readAll(filter ? { filter } : {});
  return until ? events.filter((e) => comparePositions(e.position, until) <= 0).length : events.length;
}
