// Erasure scopes and the pipeline's robustness: a source ref reaches the
// entries recorded from it (not those it only corroborated), a subject
// erasure shreds every key it had, an erasure that stopped between its
// tombstone and its receipt is finished by the next request, and auditors
// see who asked, when and why — never what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConsolidation } from '../../src/commands/consolidation/run.js';
import { forgetMemory, forgetSourceRef, forgetSubject } from '../../src/commands/forget.js';
import { executeSubjectCommand } from '../../src/commands/subject/execute.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { readSubjectEvents } from '../../src/queries/subject-events.js';
import { runCli } from '../support/cli.js';
import { fact, ok, openWorld, type World } from './support.js';

let world: World;
beforeAll(async () => {
  world = await openWorld('forgetting_scopes');
});
afterAll(async () => world?.close());

const events = (c: { tenant: string; subject: string }) => readSubjectEvents(world.ledger.eventStore, world.ledger.keyStore, c);

describe('erasure scopes', () => {
  it('a source ref erases the entries recorded from it and leaves those it only corroborated', async () => {
    const c = { tenant: 'acme', subject: 'by-ref' };
    const from = (ref: string, key: string, value: string) => ({ ...fact(key, value), source: { type: 'user_assertion', refs: [ref] } });
    const a = ok(await recordMemory(world.ledger, c, from('msg://chat-3/turn-1', 'diet', 'strictly vegan since 2019'))).memoryId;
    const b = ok(await recordMemory(world.ledger, c, from('msg://chat-3/turn-1', 'allergy', 'severe peanut allergy'))).memoryId;
    const other = ok(await recordMemory(world.ledger, c, from('msg://chat-9/turn-2', 'city', 'lives in Porto Alegre'))).memoryId;
    // The ref repeats what another source said first: a corroboration, not the entry's origin.
    const duplicate = ok(await recordMemory(world.ledger, c, from('msg://chat-3/turn-1', 'city', 'lives in Porto Alegre')));
    expect(duplicate).toMatchObject({ decision: 'DUPLICATE', memoryId: other });

    const receipt = ok(
      await forgetSourceRef(world.ledger, { ...c, actor: 'dpo@acme' }, 'msg://chat-3/turn-1', 'withdrawn consent', world.erasure(c)),
    );
    expect(receipt).toMatchObject({
      scope: 'source_ref',
      sourceRef: 'msg://chat-3/turn-1',
      memoryIds: [a, b],
      canonicalRecords: 2,
      requestedBy: 'dpo@acme',
      reason: 'withdrawn consent',
    });
    expect(receipt.verification?.status, JSON.stringify(receipt.verification)).toBe('passed');
    const after = JSON.stringify(await events(c));
    expect(after).not.toContain('vegan');
    expect(after).not.toContain('peanut');
    expect(after).toContain('Porto Alegre');

    expect(await forgetSourceRef(world.ledger, c, 'msg://chat-3/turn-1')).toMatchObject({
      ok: false,
      rejection: { code: 'already_forgotten', field: 'sourceRef' },
    });
    expect(await forgetSourceRef(world.ledger, c, 'msg://never')).toMatchObject({
      ok: false,
      rejection: { code: 'memory_not_found', field: 'sourceRef' },
    });
    await expect(forgetSourceRef(world.ledger, c, 'has spaces')).rejects.toBeInstanceOf(InvalidInput);
    await expect(forgetMemory(world.ledger, c, 'not/an id')).rejects.toBeInstanceOf(InvalidInput);
  });

  it('a subject erasure destroys the subject key, every memory key and every artifact key, and takes no more writes', async () => {
    const c = { tenant: 'acme', subject: 'whole' };
    ok(await recordMemory(world.ledger, c, fact('contact.phone', '+55 51 99876 5432')));
    ok(await recordMemory(world.ledger, c, fact('notification.preference', 'sms')));
    const consolidated = ok(await runConsolidation(world.ledger, world.services, c));
    const artifactId = 'prepare' in consolidated ? consolidated.prepare.artifactId : '';
    const before = await world.ledger.keyStore.listKeyIds(c);

    const receipt = ok(await forgetSubject(world.ledger, c, 'account closed', world.erasure(c)));
    expect(receipt).toMatchObject({
      scope: 'subject',
      canonicalRecords: 2,
      invalidatedArtifactIds: [artifactId],
      derivedRecordsInvalidated: 1,
    });
    const keyIds = [
      before.subject!.keyId!,
      ...before.memories.map((m) => m.keyId!),
      ...(await world.ledger.keyStore.listArtifactKeyIds(c)).map((a) => a.keyId!),
    ];
    expect([...receipt.destroyedKeyIds].sort()).toEqual(keyIds.sort());
    expect(receipt.verification?.status, JSON.stringify(receipt.verification)).toBe('passed');
    const listed = await world.ledger.keyStore.listKeyIds(c);
    expect([listed.subject!.state, ...listed.memories.map((m) => m.state)].every((s) => s === 'forgotten')).toBe(true);
    expect(JSON.stringify(await events(c))).not.toContain('99876');
    expect(await recordMemory(world.ledger, c, fact('x', 'y'))).toMatchObject({ ok: false });
    expect(await forgetSubject(world.ledger, c)).toMatchObject({ ok: false, rejection: { code: 'already_forgotten' } });
  });

  it('finishes an erasure that stopped after its tombstone, and answers a retry with the same receipt', async () => {
    const c = { tenant: 'acme', subject: 'resumed' };
    const m = ok(await recordMemory(world.ledger, c, fact('contact.phone', '+81 3 5555 0199'))).memoryId;
    // What a crash right after step 4 leaves: keys destroyed, tombstone appended, no receipt.
    await world.ledger.keyStore.forgetMemories(c, [m]);
    ok(
      await executeSubjectCommand(
        world.ledger,
        { stream: subjectStreamName(c.tenant, c.subject), commandId: 'crashed-erasure' },
        (_l, now) => ({ type: 'EraseMemories', memoryIds: [m], now }),
      ),
    );

    const receipt = ok(await forgetMemory(world.ledger, { ...c, idempotencyKey: 'second-try' }, m, undefined, world.erasure(c)));
    expect(receipt).toMatchObject({ scope: 'memory', memoryIds: [m] });
    expect(receipt.destroyedKeyIds).toHaveLength(1);
    // The content could no longer be read, so only hashes were searched for, and the receipt says so.
    expect(receipt.verification?.searchedFor).not.toContain('plaintext');
    expect(receipt.verification?.status, JSON.stringify(receipt.verification)).toBe('passed');

    const retried = ok(await forgetMemory(world.ledger, { ...c, idempotencyKey: 'second-try' }, m));
    expect(retried).toEqual(receipt);
    expect(await forgetMemory(world.ledger, c, m)).toMatchObject({ ok: false, rejection: { code: 'already_forgotten' } });
    const types = (await events(c)).map((e) => e.type);
    expect(types).toEqual(['MemoryRecorded', 'MemoryForgotten', 'DeletionReceiptIssued']);
  });

  it('auditors see that something existed and was erased — ids, times, who and why — never what', async () => {
    const c = { tenant: 'acme', subject: 'audited' };
    const m = ok(
      await recordMemory(world.ledger, c, {
        ...fact('medical.note', 'type 1 diabetes, insulin pump'),
        kind: 'semantic',
        sensitivity: 'restricted',
      }),
    ).memoryId;
    const receipt = ok(await forgetMemory(world.ledger, { ...c, actor: 'support-agent-7' }, m, 'ticket 5521', world.erasure(c)));
    const log = await events(c);
    const recorded = log.find((e) => e.type === 'MemoryRecorded')!;
    expect(recorded.data).toMatchObject({
      memoryId: m,
      kind: 'semantic',
      key: 'medical.note',
      sensitivity: 'restricted',
      value: { status: 'forgotten' },
    });
    const forgotten = log.find((e) => e.type === 'MemoryForgotten')!;
    expect(forgotten).toMatchObject({ data: { memoryId: m, reason: 'ticket 5521' }, metadata: { actor: 'support-agent-7' } });
    const issued = log.find((e) => e.type === 'DeletionReceiptIssued')!;
    expect(issued.data).toMatchObject({
      receiptId: receipt.receiptId,
      memoryIds: [m],
      requestedBy: 'support-agent-7',
      reason: 'ticket 5521',
    });
    expect(JSON.stringify(log)).not.toContain('diabetes');
  });

  it('the CLI erases by source ref, and refuses --memory with --source-ref naming the option (nothing written)', async () => {
    const c = { tenant: 'acme', subject: 'cli-ref' };
    const m = ok(
      await recordMemory(world.ledger, c, {
        ...fact('pet.name', 'a cat called Biscuit Moon'),
        source: { type: 'user_assertion', refs: ['msg://cli/1'] },
      }),
    ).memoryId;
    const args = ['forget', '--tenant', c.tenant, '--subject', c.subject];
    const both = await runCli([...args, '--memory', m, '--source-ref', 'msg://cli/1'], world.env);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stderr)).toMatchObject({ error: 'invalid_input', field: 'source-ref' });
    expect((await events(c)).map((e) => e.type)).toEqual(['MemoryRecorded']);
    const run = await runCli([...args, '--source-ref', 'msg://cli/1', '--reason', 'consent withdrawn'], world.env);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      scope: 'source_ref',
      sourceRef: 'msg://cli/1',
      memoryIds: [m],
      verification: { status: 'passed' },
    });
    expect(run.stdout + run.stderr).not.toContain('Biscuit');
  }, 120_000);
});
