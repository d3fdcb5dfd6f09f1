// Real processes through the CLI: a worker killed (SIGKILL) after the
// artifact write and before publication leaves nothing half-made readable,
// and the next run publishes that very artifact; a refused switch exits 3
// with the reason.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareConsolidation } from '../../src/commands/consolidation/prepare.js';
import { readableSummary } from '../../src/commands/consolidation/readable-summary.js';
import { retractMemory } from '../../src/commands/lifecycle.js';
import { openLedger, type OpenLedger } from '../../src/runtime/open-ledger.js';
import { CLI, cliEnvironment, runCli } from '../support/cli.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';
import { artifactEventTypes, fill, subjectState, testServices } from './support.js';

let database: TestDatabase;
let env: Record<string, string>;
const children: ChildProcess[] = [];
const c = { tenant: 'acme', subject: 'crash' };

beforeAll(async () => {
  database = await createTestDatabase('consolidation_crash');
  env = cliEnvironment(database.url);
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await database?.drop();
});

/** A fresh ledger each time: nothing cached from before the crash. */
async function withLedger<T>(use: (ledger: OpenLedger) => Promise<T>): Promise<T> {
  const ledger = await openLedger({ env });
  try {
    return await use(ledger);
  } finally {
    await ledger.close();
  }
}

/** A worker process that pauses right after writing an artifact, before publishing it. */
function pausedWorker(): { child: ChildProcess; paused: Promise<string> } {
  const child = spawn(process.execPath, [...CLI, 'consolidate', 'worker', '--tenant', c.tenant, '--threshold', '10'], {
    env: { ...process.env, ...env, MEMLEDGER_CONSOLIDATE_PAUSE_AFTER_ARTIFACT: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const paused = new Promise<string>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      const line = stderr.split('\n').find((l) => l.includes('"paused"'));
      if (line) resolve((JSON.parse(line) as { artifactId: string }).artifactId);
    });
    child.on('exit', (code) => reject(new Error(`the worker exited (${code}) before pausing: ${stderr}`)));
  });
  return { child, paused };
}

describe('consolidation across processes', () => {
  it('killed after the artifact write: the alias is unchanged, nothing is readable, and the next run publishes that artifact', async () => {
    await withLedger((ledger) => fill(ledger, c, 40));
    const { child, paused } = pausedWorker();
    const artifactId = await paused;
    child.kill('SIGKILL');
    await once(child, 'exit');

    await withLedger(async (ledger) => {
      expect(await artifactEventTypes(ledger, artifactId)).toEqual(['ArtifactGenerated', 'GatePassed']);
      expect((await subjectState(ledger, c)).alias).toBeNull();
      expect(await readableSummary(ledger, c)).toMatchObject({ status: 'raw', reason: 'no_alias' });
    });

    const next = await runCli(['consolidate', 'run', '--tenant', c.tenant, '--subject', c.subject], env);
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    const result = JSON.parse(next.stdout);
    expect(result).toMatchObject({
      status: 'switched',
      prepare: { artifactId, reused: true },
      publish: { status: 'switched', alias: { artifactId, coversThrough: 40 } },
    });
    await withLedger(async (ledger) => {
      expect(await readableSummary(ledger, c)).toMatchObject({ status: 'summary', alias: { artifactId } });
    });
  }, 180_000);

  it('a refused switch exits 3 with the reason', async () => {
    const artifactId = await withLedger(async (ledger) => {
      await fill(ledger, c, 5, 41);
      const prepared = await prepareConsolidation(ledger, await testServices(), c);
      if (!prepared.ok) throw new Error('prepare refused');
      const victim = [...(await subjectState(ledger, c)).entries.values()].find((e) => e.sequence === 2)!;
      await retractMemory(ledger, c, victim.memoryId, 'withdrawn after the gate');
      return prepared.result.artifactId;
    });
    const refused = await runCli(['consolidate', 'publish', '--tenant', c.tenant, '--artifact', artifactId], env);
    expect(refused.code).toBe(3);
    expect(JSON.parse(refused.stderr)).toMatchObject({ error: 'epoch_changed' });
    expect(JSON.parse(refused.stdout)).toMatchObject({ status: 'rejected', reason: 'epoch_changed', artifactId });
  }, 120_000);
});
