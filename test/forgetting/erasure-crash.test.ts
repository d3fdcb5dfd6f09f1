// An erasure killed (SIGKILL, a real CLI process) between its steps: after
// the keys are destroyed and before the tombstone, the content is already
// unreadable on every path, and a later `forget` of the same memory finishes
// the erasure (tombstone, checks, receipt); after the tombstone and before
// the receipt, a retry with the same idempotency key issues the receipt
// once.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { CLI, runCli } from '../support/cli.js';
import { fact, ok, openWorld, type World } from './support.js';

let world: World;
const children: ChildProcess[] = [];
beforeAll(async () => {
  world = await openWorld('forgetting_crash');
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await world?.close();
});

/** `memledger forget …` that pauses after `step`; resolves once it says so. */
function pausedForget(args: string[], step: 'keys_destroyed' | 'tombstoned'): { child: ChildProcess; paused: Promise<void> } {
  const child = spawn(process.execPath, [...CLI, 'forget', ...args], {
    env: { ...process.env, ...world.env, MEMLEDGER_FORGET_PAUSE_AFTER: step },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const paused = new Promise<void>((resolve, reject) => {
    let stderr = '';
    child.stderr!.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes(`{"paused":"${step}"}`)) resolve();
    });
    child.on('exit', (code) => reject(new Error(`forget exited (${code}) before pausing: ${stderr}`)));
  });
  return { child, paused };
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  expect(child.signalCode).toBe('SIGKILL');
}

const typesOf = async (c: { tenant: string; subject: string }) =>
  (await world.ledger.eventStore.readStream(subjectStreamName(c.tenant, c.subject))).map((e) => e.type);

describe('an erasure killed between its steps', () => {
  it('killed after the keys are destroyed: nothing is readable, and the next forget finishes the erasure', async () => {
    const c = { tenant: 'acme', subject: 'killed-keys' };
    const PHONE = '+49 30 901820 77 (Zentrale)';
    const phone = ok(await recordMemory(world.ledger, c, fact('contact.phone', PHONE, { content: `Erreichbar unter ${PHONE}` }))).memoryId;
    ok(await recordMemory(world.ledger, c, fact('notification.preference', 'sms over email, always')));
    const run = ok(await runConsolidation(world.ledger, world.services, c));
    const artifactId = 'prepare' in run ? run.prepare.artifactId : '';
    expect(run.status).toBe('switched');
    const subject = ['--tenant', c.tenant, '--subject', c.subject];

    const { child, paused } = pausedForget([...subject, '--memory', phone], 'keys_destroyed');
    await paused;
    await kill(child);

    // The keys are gone (the memory's and the summary's), the tombstone is not there yet.
    const keys = await world.ledger.keyStore.listKeyIds(c);
    expect(keys.memories.find((m) => m.memoryId === phone)?.state).toBe('forgotten');
    expect(await world.ledger.keyStore.artifactKey(c, artifactId)).toMatchObject({ status: 'forgotten' });
    expect(await typesOf(c)).not.toContain('MemoryForgotten');
    // Already nothing returns the number: the content cannot be opened any more.
    const recall = await runCli(['recall', ...subject, '--max-sensitivity', 'restricted'], world.env);
    expect(recall.code, recall.stderr).toBe(0);
    expect(recall.stdout).not.toContain('901820');
    expect(recall.stdout).toContain('sms over email');
    const events = await runCli(['events', ...subject], world.env);
    expect(events.code, events.stderr).toBe(0);
    expect(events.stdout).not.toContain('901820');

    // A later request for the same memory finishes it.
    const again = await runCli(['forget', ...subject, '--memory', phone, '--reason', 'retry after crash'], world.env);
    expect(again.code, again.stderr).toBe(0);
    const receipt = JSON.parse(again.stdout);
    expect(receipt).toMatchObject({
      scope: 'memory',
      memoryIds: [phone],
      invalidatedArtifactIds: [artifactId],
      canonicalRecords: 1,
      derivedRecordsInvalidated: 1,
    });
    expect(receipt.verification.status, JSON.stringify(receipt.verification)).toBe('passed');
    // The content could no longer be read: only hashes were searched for, and the receipt says so.
    expect(receipt.verification.searchedFor).not.toContain('plaintext');
    const types = await typesOf(c);
    expect(types.filter((t) => t === 'MemoryForgotten')).toHaveLength(1);
    expect(types.filter((t) => t === 'DeletionReceiptIssued')).toHaveLength(1);
    expect(types.at(-1)).toBe('DeletionReceiptIssued');
  });

  it('killed after the tombstone: a retry with the same idempotency key issues the receipt once', async () => {
    const c = { tenant: 'acme', subject: 'killed-tombstone' };
    const m = ok(await recordMemory(world.ledger, c, fact('contact.email', 'k.tanaka.private@example.org'))).memoryId;
    ok(await recordMemory(world.ledger, c, fact('shipping.city', 'Osaka')));
    const args = ['--tenant', c.tenant, '--subject', c.subject, '--memory', m, '--idempotency-key', 'erase-7'];

    const { child, paused } = pausedForget(args, 'tombstoned');
    await paused;
    await kill(child);
    expect(await typesOf(c)).toEqual(['MemoryRecorded', 'MemoryRecorded', 'MemoryForgotten']);

    const retried = await runCli(['forget', ...args], world.env);
    expect(retried.code, retried.stderr).toBe(0);
    const receipt = JSON.parse(retried.stdout);
    expect(receipt).toMatchObject({ memoryIds: [m], verification: { status: 'passed' } });
    expect(await typesOf(c)).toEqual(['MemoryRecorded', 'MemoryRecorded', 'MemoryForgotten', 'DeletionReceiptIssued']);

    // Once more with the key: the same receipt, nothing appended.
    const third = await runCli(['forget', ...args], world.env);
    expect(third.code, third.stderr).toBe(0);
    expect(JSON.parse(third.stdout)).toEqual(receipt);
    expect(await typesOf(c)).toHaveLength(4);
  });
});
