// Four worker processes consolidate the same subjects while a writer appends
// and retracts (DESIGN section 9.1, issue 5): coverage never decreases, and
// every artifact an alias ever pointed at passed the gate with the inputEpoch
// current at its switch — its fences held at the revision it was switched at.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readArtifact } from '../../src/reads/streams/artifact-stream.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { recordMemory } from '../../src/commands/record.js';
import { consolidationDue } from '../../src/domain/consolidation/schedule.js';
import { sameAlias } from '../../src/domain/events/alias.js';
import { decodeStoredEvent } from '../../src/domain/events/decode.js';
import { isSubjectEvent } from '../../src/domain/events/catalog.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { evolve } from '../../src/domain/subject/evolve.js';
import { activeEntries, initialState } from '../../src/domain/subject/state.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { CLI, cliEnvironment } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { fill, fillerEntry } from './support.js';

// Scaled down from the 100 subjects so the test stays well under two
// minutes on two busy cores; the contention per subject is what matters.
const SUBJECTS = 40;
const WORKERS = 4;
const WRITES = 120;
const THRESHOLD = 4;
const tenant = 'fleet';

let database: TestDatabase;
let env: Record<string, string>;
let ledger: OpenLedger;
const workers: ChildProcess[] = [];

beforeAll(async () => {
  database = await createTestDatabase('consolidation_workers');
  env = cliEnvironment(database.url);
  ledger = await openLedger({ env });
});
afterAll(async () => {
  for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGKILL');
  await ledger?.close();
  await database?.drop();
});

const subjects = Array.from({ length: SUBJECTS }, (_, i) => `s-${String(i).padStart(3, '0')}`);
const random = (n: number) => Math.floor(Math.random() * n);

function startWorker(): { child: ChildProcess; firstRun: Promise<void>; stdout: () => string } {
  const child = spawn(process.execPath, [...CLI, 'consolidate', 'worker', '--tenant', tenant, '--threshold', String(THRESHOLD)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  workers.push(child);
  let stdout = '';
  child.stdout!.on('data', (d) => (stdout += d));
  const firstRun = new Promise<void>((resolve) => child.stderr!.once('data', () => resolve()));
  return { child, firstRun, stdout: () => stdout };
}

async function write(i: number): Promise<void> {
  const context = { tenant, subject: subjects[random(SUBJECTS)]! };
  if (i % 4 === 3) {
    const state = (await ledger.subjects.load(subjectStreamName(tenant, context.subject))).state;
    const active = activeEntries(state);
    if (active.length > 0) {
      await retractMemory(ledger, context, active[random(active.length)]!.memoryId, 'withdrawn during consolidation');
      return;
    }
  }
  await recordMemory(ledger, context, fillerEntry(1000 + i, `w${i}`));
}

async function dueSubjects(): Promise<string[]> {
  const due: string[] = [];
  for (const subject of subjects) {
    const state = (await ledger.subjects.load(subjectStreamName(tenant, subject))).state;
    if (consolidationDue(state, THRESHOLD)) due.push(subject);
  }
  return due;
}

describe('several workers on the same subjects', () => {
  it('never decrease coverage and only ever switch to artifacts that passed the gate at the epoch of the switch', async () => {
    const t0 = Date.now();
    for (const subject of subjects) await fill(ledger, { tenant, subject }, 6, 1, 'base');
    const t1 = Date.now();
    const started = Array.from({ length: WORKERS }, startWorker);
    await Promise.race(started.map((w) => w.firstRun));

    // Writers: four concurrent loops appending and retracting while the workers run.
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < WRITES) await write(next++);
      }),
    );

    const t2 = Date.now();
    // Liveness: the workers catch up with everything written.
    const deadline = Date.now() + 90_000;
    let due = await dueSubjects();
    while (due.length > 0 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      due = await dueSubjects();
    }
    expect(due).toEqual([]);
    const phases = `fill ${t1 - t0} ms, boot and writes ${t2 - t1} ms, drain ${Date.now() - t2} ms`;
    for (const w of started) w.child.kill('SIGTERM');
    await Promise.all(started.map((w) => (w.child.exitCode === null ? once(w.child, 'exit') : undefined)));
    const stats = started.map((w) => JSON.parse(w.stdout()) as { switched: number; rejected: number; errors: number });
    expect(stats.map((s) => s.errors)).toEqual(Array(WORKERS).fill(0));
    expect(stats.reduce((n, s) => n + s.switched, 0)).toBeGreaterThanOrEqual(SUBJECTS);

    let switches = 0;
    for (const subject of subjects) {
      const stored = await ledger.eventStore.readStream(subjectStreamName(tenant, subject));
      let state = initialState();
      for (const s of stored) {
        const event = decodeStoredEvent(s);
        if (!isSubjectEvent(event)) continue;
        if (event.type === 'SummaryAliasSwitched') {
          switches++;
          const { data } = event;
          // Coverage never decreases.
          expect(data.coversThrough).toBeGreaterThanOrEqual(state.alias?.coversThrough ?? 0);
          expect(sameAlias(data.previous, state.alias)).toBe(true);
          // The artifact passed the gate, and was built at the inputEpoch current at its switch.
          const artifact = await readArtifact(ledger.eventStore, data.artifactId);
          expect(artifact.gatePassed).toBeDefined();
          expect(artifact.gateFailed).toBeUndefined();
          const manifest = artifact.generated!.manifest;
          expect(data.sourceEpoch).toBe(state.inputEpoch);
          expect(manifest.inputEpoch).toBe(state.inputEpoch);
          expect(manifest.newCoversThrough).toBe(data.coversThrough);
          expect(sameAlias(manifest.expectedAlias, state.alias)).toBe(true);
          for (const input of manifest.inputs) {
            const entry = state.entries.get(input.memoryId);
            expect(entry?.status).toBe('active');
            expect(entry?.valueHash).toBe(input.valueHash);
          }
        }
        state = evolve(state, event);
      }
      expect(state.alias?.sourceEpoch).toBe(state.inputEpoch);
    }
    expect(switches).toBeGreaterThanOrEqual(SUBJECTS);
    const rejections = (
      await ledger.eventStore.readAll({ filter: { streamPrefixes: ['artifact-'], eventTypePrefixes: ['ConsolidationRejected'] } })
    ).length;
    console.log(
      `workers: ${JSON.stringify(stats)}; ${switches} switches and ${rejections} rejected artifacts on ${SUBJECTS} subjects (${phases})`,
    );
  }, 240_000);
});
