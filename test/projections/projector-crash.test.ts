// Projector processes killed with SIGKILL at random points — mid-batch,
// between batches — and restarted, with three of them on
// the same database all along (one owns the projection, the others stand by
// and take over when the owner dies), while events keep being appended.
// The tables they end with are the tables of a projector that never died.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { comparePositions, type Position } from '../../src/infrastructure/event-store/port.js';
import { openProjectionDatabase, type ProjectionDatabase } from '../../src/projections/database.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { catchUpProjection } from '../../src/projections/runtime/catch-up.js';
import { activeSchema, readCheckpoint } from '../../src/projections/runtime/registry.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { digestSchema } from './support/digest.js';
import { openProjectionWorld, random, type ProjectionWorld } from './support/projection-fixture.js';
import { appendChunk, Workload, type Append } from './support/workload.js';
import { nodeArgumentsFor } from '../support/compiled-sources.js';

const CHILD = fileURLToPath(new URL('./support/projector-child.ts', import.meta.url));
const KILLS = 10;

interface Projector {
  readonly process: ChildProcess;
  batches: number;
  lastBatchAt: number;
  stoodBy: boolean;
  tookOver: boolean;
  exited: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('projector processes killed with SIGKILL', () => {
  let world: ProjectionWorld;
  let killedDb: TestDatabase;
  let killed: ProjectionDatabase;
  const projectors: Projector[] = [];

  beforeAll(async () => {
    world = await openProjectionWorld('proj_crash_log');
    killedDb = await createTestDatabase('proj_crash_killed');
    killed = await openProjectionDatabase(killedDb.url);
  });

  afterAll(async () => {
    for (const p of projectors) if (!p.exited) p.process.kill('SIGKILL');
    await killed?.close();
    await killedDb?.drop();
    await world?.close();
  });

  function start(): Projector {
    const child = spawn(process.execPath, [...nodeArgumentsFor(CHILD), world.database.url, killedDb.url, '400'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const projector: Projector = { process: child, batches: 0, lastBatchAt: 0, stoodBy: false, tookOver: false, exited: false };
    let buffered = '';
    child.stdout!.on('data', (data) => {
      buffered += String(data);
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (line === 'standby') projector.stoodBy = true;
        if (line.startsWith('batch ')) {
          projector.batches += 1;
          projector.lastBatchAt = performance.now();
          if (projector.stoodBy) projector.tookOver = true;
        }
      }
    });
    child.stderr!.on('data', () => undefined);
    child.on('exit', () => (projector.exited = true));
    projectors.push(projector);
    return projector;
  }

  /** The last position appended (the head of the log may lag behind it while older transactions run). */
  let last: Position | undefined;
  const append = async (appends: Append[]) => {
    last = (await appendChunk(world.store, appends)) ?? last;
  };

  async function caughtUp(): Promise<boolean> {
    const active = await activeSchema(killed.db, memoryProjection.name);
    const checkpoint = active ? (await readCheckpoint(killed.db, active.schema_name)).position : undefined;
    return checkpoint !== undefined && comparePositions(checkpoint, last!) >= 0;
  }

  it('end with the rows of a projector that never died', async () => {
    const workload = new Workload({ subjects: 80, seed: 99 });
    const rand = random(12345);
    await append(workload.chunk(2500));
    // Three at a time: while a replacement starts up, a standby is there to take over.
    start();
    start();
    start();
    let kills = 0;
    let killedWithWorkLeft = 0;
    while (kills < KILLS) {
      const live = projectors.filter((p) => !p.exited);
      // Wait for a live projector to commit something, then kill it a random moment later.
      const before = live.reduce((n, p) => n + p.batches, 0);
      const deadline = performance.now() + 30_000;
      while (live.reduce((n, p) => n + p.batches, 0) === before && performance.now() < deadline) await sleep(10);
      if (live.reduce((n, p) => n + p.batches, 0) === before) {
        // Everything applied: give them more work.
        await append(workload.chunk(1000));
        continue;
      }
      await sleep(rand(250));
      const owner = live.filter((p) => !p.exited).sort((a, b) => b.lastBatchAt - a.lastBatchAt)[0]!;
      owner.process.kill('SIGKILL');
      await new Promise((resolve) => (owner.exited ? resolve(undefined) : owner.process.once('exit', resolve)));
      kills += 1;
      if (!(await caughtUp())) killedWithWorkLeft += 1;
      start();
      if (kills % 3 === 0) await append(workload.chunk(400 + rand(400)));
    }

    // Let the survivors finish, then stop them.
    const deadline = performance.now() + 120_000;
    while (!(await caughtUp())) {
      expect(performance.now()).toBeLessThan(deadline);
      await sleep(100);
    }
    for (const p of projectors) if (!p.exited) p.process.kill('SIGKILL');

    expect(kills).toBeGreaterThanOrEqual(10);
    expect(killedWithWorkLeft).toBeGreaterThanOrEqual(4);
    expect(projectors.some((p) => p.tookOver)).toBe(true);

    // The reference: the same log, projected by one run that never died, in another database.
    const referenceDb = await createTestDatabase('proj_crash_reference');
    const reference = await openProjectionDatabase(referenceDb.url);
    try {
      const result = await catchUpProjection(reference.db, world.store, memoryProjection, { batchSize: 3000, until: last! });
      const survivor = (await activeSchema(killed.db, memoryProjection.name))!;
      expect((await readCheckpoint(killed.db, survivor.schema_name)).eventsSeen).toBe(workload.count);
      expect(await digestSchema(killed.db, survivor.schema_name)).toEqual(await digestSchema(reference.db, result.schema));
    } finally {
      await reference.close();
      await referenceDb.drop();
    }
  }, 240_000);
});
