// A projection test's world: a fresh database holding the event store (the
// PostgreSQL adapter) and the projections, and helpers to drive them.
import type { EventStore } from '../../../src/infrastructure/event-store/port.js';
import { openPostgresEventStore } from '../../../src/infrastructure/event-store/postgres/open.js';
import { openProjectionDatabase } from '../../../src/projections/database.js';
import type { ProjectionsKysely } from '../../../src/projections/runtime/schema-handles.js';
import { createTestDatabase, type TestDatabase } from '../../support/database.js';

export interface ProjectionWorld {
  readonly database: TestDatabase;
  readonly store: EventStore;
  readonly db: ProjectionsKysely;
  close(): Promise<void>;
}

export async function openProjectionWorld(prefix: string): Promise<ProjectionWorld> {
  const database = await createTestDatabase(prefix);
  const store = await openPostgresEventStore(database.url);
  const projections = await openProjectionDatabase(database.url);
  return {
    database,
    store,
    db: projections.db,
    async close() {
      await projections.close();
      await store.close();
      await database.drop();
    },
  };
}

/** A seeded PRNG for test schedules (mulberry32). */
export function random(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}
