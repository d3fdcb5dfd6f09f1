// `memledger projections status | run [--follow] | rebuild` through the real
// CLI (child processes): JSON on stdout, progress on stderr (plain lines, as
// stderr is not a terminal here), bad input exit 2 naming the option.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore } from '../../src/infrastructure/event-store/port.js';
import { openPostgresEventStore } from '../../src/infrastructure/event-store/postgres/open.js';
import { formatPosition } from '../../src/infrastructure/event-store/port.js';
import { CLI, cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { conflictsTrustProjection } from '../../src/projections/conflicts-trust/definition.js';
import { memoryProjection } from '../../src/projections/memory/definition.js';
import { candidatesProjection } from '../../src/projections/candidates/definition.js';
import { eventsRead } from './support/events-read.js';
import { logShows } from './support/log-horizon.js';
import { appendChunk, Workload } from './support/workload.js';

describe('memledger projections', () => {
  let database: TestDatabase;
  let store: EventStore;
  let env: Record<string, string>;
  const workload = new Workload({ subjects: 20, seed: 3 });

  beforeAll(async () => {
    database = await createTestDatabase('proj_cli');
    store = await openPostgresEventStore(database.url);
    env = cliEnvironment(database.url);
    await logShows(store, (await appendChunk(store, workload.chunk(1500)))!);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('run catches up once, status reports version, checkpoint, head and lag, rebuild swaps in a new build', async () => {
    const head = formatPosition((await store.headPosition())!);
    const run = await runCli(['projections', 'run', '--batch-size', '500'], env);
    expect(run.code, run.stderr).toBe(0);
    const [caughtUp, trustCaughtUp] = JSON.parse(run.stdout);
    // conflicts_trust and candidates read subject streams only: the workload's artifact events are never fetched, nor counted.
    const subjectEvents = await eventsRead(store, conflictsTrustProjection);
    expect(subjectEvents).toBeLessThan(workload.count);
    expect(trustCaughtUp).toMatchObject({
      projection: 'conflicts_trust',
      version: conflictsTrustProjection.version,
      applied: subjectEvents,
      checkpoint: head,
    });
    expect(caughtUp).toMatchObject({
      projection: 'memory',
      version: memoryProjection.version,
      applied: workload.count,
      checkpoint: head,
      head,
      appliedBy: 'this process',
    });

    await logShows(store, (await appendChunk(store, workload.chunk(100)))!);
    const status = await runCli(['projections', 'status'], env);
    expect(status.code, status.stderr).toBe(0);
    const [memory, trust] = JSON.parse(status.stdout);
    expect(trust).toMatchObject({ projection: 'conflicts_trust', active: { schema: trustCaughtUp.schema, matchesCode: true } });
    expect(memory).toMatchObject({
      projection: 'memory',
      code: { version: memoryProjection.version },
      head: formatPosition((await store.headPosition())!),
    });
    expect(memory.active).toMatchObject({
      schema: caughtUp.schema,
      version: memoryProjection.version,
      matchesCode: true,
      checkpoint: head,
      eventsSeen: caughtUp.eventsSeen,
      lagIsLowerBound: false,
    });
    expect(memory.active.lag).toBe(workload.count - caughtUp.eventsSeen);

    const rebuild = await runCli(['projections', 'rebuild', '--batch-size', '400'], env);
    expect(rebuild.code, rebuild.stderr).toBe(0);
    const [rebuilt, trustRebuilt, candidatesRebuilt] = JSON.parse(rebuild.stdout);
    expect(candidatesRebuilt).toMatchObject({ projection: 'candidates', events: await eventsRead(store, candidatesProjection) });
    expect(trustRebuilt).toMatchObject({
      projection: 'conflicts_trust',
      events: await eventsRead(store, conflictsTrustProjection),
      dropped: [trustCaughtUp.schema],
    });
    expect(rebuilt).toMatchObject({
      projection: 'memory',
      version: memoryProjection.version,
      events: workload.count,
      previous: { schema: caughtUp.schema, version: memoryProjection.version },
      dropped: [caughtUp.schema],
    });
    expect(rebuilt.schema).toMatch(new RegExp(`^mlp_memory_v${memoryProjection.version}_[0-9a-f]{8}_b2$`));
    expect(rebuild.stderr).toContain(`rebuilding memory into ${rebuilt.schema}`);
    expect(rebuild.stderr).toMatch(new RegExp(`memory: ${workload.count} events in [0-9.]+ s, \\d+ events/s`));

    // One read model by name: only it is rebuilt.
    const one = await runCli(['projections', 'rebuild', '--projection', 'conflicts_trust'], env);
    expect(one.code, one.stderr).toBe(0);
    const only = JSON.parse(one.stdout);
    expect(only).toEqual([
      expect.objectContaining({ projection: 'conflicts_trust', previous: expect.objectContaining({ schema: trustRebuilt.schema }) }),
    ]);
    const after = JSON.parse((await runCli(['projections', 'status'], env)).stdout);
    expect(after.map((p: { active: { schema: string } }) => p.active.schema)).toEqual([
      rebuilt.schema,
      only[0].schema,
      candidatesRebuilt.schema,
    ]);
  });

  it('run --follow applies events as they are appended, until stopped', async () => {
    const child = spawn(process.execPath, [...CLI, 'projections', 'run', '--follow', '--batch-size', '50'], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const seen = async (count: number) => {
      for (;;) {
        const lines = stdout
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { eventsSeen: number });
        if (lines.some((l) => l.eventsSeen === count)) return;
        if (child.exitCode !== null) throw new Error(`follow exited: ${stderr}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    await appendChunk(store, workload.chunk(120));
    await seen(workload.count);
    await appendChunk(store, workload.chunk(30));
    await seen(workload.count);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 300_000);

  it('refuses a bad option with exit 2, naming it, before opening anything', async () => {
    const bad = await runCli(['projections', 'run', '--batch-size', '0'], {
      ...env,
      MEMLEDGER_EVENTSTORE_URL: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(bad.code).toBe(2);
    expect(JSON.parse(bad.stderr)).toMatchObject({ error: 'invalid_input', field: 'batch-size' });
  });
});
