// The projections use nothing but the event store port, so the EventStoreDB
// adapter feeds them the same rows as the PostgreSQL one. Here the real
// @eventstore/db-client talks to the wire-level double of EventStoreDB
// (test/support/esdb-wire-double; a real server where one is reachable would
// do the same), and the rows are compared with those projected from the
// PostgreSQL store given the very same appends — all but the columns that
// say where and when each store wrote the log (positions, commit times).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMLEDGER_STREAM_PREFIXES } from '../../src/domain/events/stream-names.js';
import { openEsdbEventStore } from '../../src/infrastructure/event-store/esdb/esdb-event-store.js';
import type { EventStore, Position } from '../../src/infrastructure/event-store/port.js';
import { openProjectionDatabase, type ProjectionDatabase } from '../../src/projections/database.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { catchUpProjection } from '../../src/projections/runtime/catch-up.js';
import { rebuildProjection } from '../../src/projections/runtime/rebuild.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { startEsdbWireDouble, type EsdbWireDouble } from '../support/esdb-wire-double/server.js';
import { digestSchema, LOG_PLACE_COLUMNS } from './support/digest.js';
import { openProjectionWorld, type ProjectionWorld } from './support/projection-fixture.js';
import { appendChunk, Workload } from './support/workload.js';

describe('the memory projection on the EventStoreDB adapter', () => {
  let world: ProjectionWorld;
  let double: EsdbWireDouble;
  let esdb: EventStore;
  let esdbProjections: TestDatabase;
  let projections: ProjectionDatabase;

  beforeAll(async () => {
    world = await openProjectionWorld('proj_esdb_pg');
    double = await startEsdbWireDouble({ serverFeatures: 'advertise-batch-append' });
    esdb = openEsdbEventStore(double.url, { streamPrefixes: MEMLEDGER_STREAM_PREFIXES });
    esdbProjections = await createTestDatabase('proj_esdb');
    projections = await openProjectionDatabase(esdbProjections.url);
  });
  afterAll(async () => {
    await projections?.close();
    await esdbProjections?.drop();
    await esdb?.close();
    await double?.close();
    await world?.close();
  });

  it('builds the rows the PostgreSQL store builds from the same appends, incrementally and rebuilt', async () => {
    const workload = new Workload({ subjects: 25, seed: 77 });
    let last: Position | undefined;
    for (let round = 0; round < 4; round++) {
      const appends = workload.chunk(600);
      // One append at a time, so both logs hold the same order.
      await appendChunk(esdb, appends, 1);
      last = await appendChunk(world.store, appends, 1);
      await catchUpProjection(projections.db, esdb, memoryProjection, { batchSize: 170 });
    }
    const fromEsdb = await catchUpProjection(projections.db, esdb, memoryProjection, { batchSize: 170 });
    const fromPostgres = await catchUpProjection(world.db, world.store, memoryProjection, { batchSize: 1000, until: last! });
    expect(fromEsdb.eventsSeen).toBe(workload.count);
    const esdbRows = await digestSchema(projections.db, fromEsdb.schema, { exclude: LOG_PLACE_COLUMNS });
    expect(esdbRows.memory_versions!.rows).toBeGreaterThan(1000);
    expect(esdbRows).toEqual(await digestSchema(world.db, fromPostgres.schema, { exclude: LOG_PLACE_COLUMNS }));

    const incremental = await digestSchema(projections.db, fromEsdb.schema);
    const rebuilt = await rebuildProjection(projections.db, esdb, memoryProjection, { batchSize: 800 });
    expect(await digestSchema(projections.db, rebuilt.schema)).toEqual(incremental);
  });

  it('builds the same rows through a follower, past 10 foreign events, with clocks that step back', async () => {
    // A shared cluster as production meets it: connected to a follower
    // (reads that lag unless sent to the leader), other applications'
    // events in $all (binary, JSON without memledger's metadata) before and
    // between memledger's, and the leader's and the writer's clocks stepping
    // back 5 s between rounds (a failover, an NTP step).
    let offset = 0;
    const clock = () => Date.now() + offset;
    const own = await startEsdbWireDouble({ serverFeatures: 'advertise-batch-append', connectTo: 'follower', foreignEvents: 4, clock });
    const store = openEsdbEventStore(own.url, { streamPrefixes: MEMLEDGER_STREAM_PREFIXES, clock });
    const ownProjections = await createTestDatabase('proj_esdb_follower');
    const ownDb = await openProjectionDatabase(ownProjections.url);
    const pgWorld = await openProjectionWorld('proj_esdb_follower_pg');
    try {
      const workload = new Workload({ subjects: 12, seed: 78 });
      let last: Position | undefined;
      for (let round = 0; round < 3; round++) {
        const appends = workload.chunk(200);
        await appendChunk(store, appends, 1);
        last = await appendChunk(pgWorld.store, appends, 1);
        // Projected at once after the appends: a follower's lagging copy would miss the newest.
        await catchUpProjection(ownDb.db, store, memoryProjection, { batchSize: 90 });
        own.appendForeign(2);
        offset -= 5_000;
      }
      const fromEsdb = await catchUpProjection(ownDb.db, store, memoryProjection, { batchSize: 90 });
      const fromPostgres = await catchUpProjection(pgWorld.db, pgWorld.store, memoryProjection, { batchSize: 1000, until: last! });
      expect(own.log.events.length - workload.count).toBeGreaterThanOrEqual(10);
      expect(fromEsdb.eventsSeen).toBe(workload.count);
      const esdbRows = await digestSchema(ownDb.db, fromEsdb.schema, { exclude: LOG_PLACE_COLUMNS });
      expect(esdbRows.memory_versions!.rows).toBeGreaterThan(200);
      expect(esdbRows).toEqual(await digestSchema(pgWorld.db, fromPostgres.schema, { exclude: LOG_PLACE_COLUMNS }));
    } finally {
      await pgWorld.close();
      await ownDb.close();
      await ownProjections.drop();
      await store.close();
      await own.close();
    }
  });
});
