// A source ref erased in every subject of a tenant: each subject that holds
// entries recorded from it gets its own erasure and receipt; entries from
// other refs, subjects without it and other tenants are untouched; a second
// run finds nothing new; the CLI does it with --source-ref and no --subject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetSourceRefEverywhere } from '../../src/commands/forgetting/source-ref-everywhere.js';
import { recordMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { readSubjectEvents } from '../../src/queries/subject-events.js';
import { runCli } from '../support/cli.js';
import { fact, ok, openWorld, type World } from './support.js';

let world: World;
beforeAll(async () => {
  world = await openWorld('forgetting_everywhere');
});
afterAll(async () => world?.close());

const HANDBOOK = 'doc://handbook/2026-v3';
const fromHandbook = (key: string, text: string) => ({ ...fact(key, text), source: { type: 'verified_tool_fact', refs: [HANDBOOK] } });
const eventsText = async (tenant: string, subject: string) =>
  JSON.stringify(await readSubjectEvents(world.read.eventStore, world.read.keyStore, { tenant, subject }));

describe('erasing a source ref in every subject of a tenant', () => {
  it('erases what each subject recorded from the ref, one receipt per subject, and nothing else', async () => {
    const t = 'acme-wide';
    const a = ok(
      await recordMemory(
        world.ledger,
        { tenant: t, subject: 'a' },
        fromHandbook('policy.refund', 'refunds within 45 days, salary band K7'),
      ),
    ).memoryId;
    ok(await recordMemory(world.ledger, { tenant: t, subject: 'a' }, fact('shipping.city', 'Lyon')));
    const b = ok(
      await recordMemory(world.ledger, { tenant: t, subject: 'b' }, fromHandbook('policy.escalation', 'escalate to desk K7-North')),
    ).memoryId;
    ok(await recordMemory(world.ledger, { tenant: t, subject: 'c' }, fact('shipping.city', 'Porto')));
    ok(
      await recordMemory(
        world.ledger,
        { tenant: 'other-tenant', subject: 'a' },
        fromHandbook('policy.refund', 'refunds within 45 days, salary band K7'),
      ),
    );

    const result = await forgetSourceRefEverywhere(
      world.ledger,
      { tenant: t, actor: 'privacy-desk' },
      HANDBOOK,
      'document withdrawn',
      (subject) => world.erasure({ tenant: t, subject }),
    );
    expect(result).toMatchObject({ tenant: t, sourceRef: HANDBOOK, subjectsSearched: 3, alreadyErased: [], refused: [] });
    expect(result.receipts.map((r) => [r.subject, r.scope, r.memoryIds, r.sourceRef, r.requestedBy])).toEqual([
      ['a', 'source_ref', [a], HANDBOOK, 'privacy-desk'],
      ['b', 'source_ref', [b], HANDBOOK, 'privacy-desk'],
    ]);
    for (const receipt of result.receipts) expect(receipt.verification?.status, JSON.stringify(receipt.verification)).toBe('passed');

    expect(await eventsText(t, 'a')).not.toContain('salary band');
    expect(await eventsText(t, 'a')).toContain('Lyon');
    expect(await eventsText(t, 'b')).not.toContain('K7-North');
    expect(await eventsText(t, 'c')).toContain('Porto');
    expect(await eventsText('other-tenant', 'a')).toContain('salary band');
    const otherTypes = (await world.ledger.eventStore.readStream(subjectStreamName('other-tenant', 'a'))).map((e) => e.type);
    expect(otherTypes).toEqual(['MemoryRecorded']);

    // Again: nothing new to erase, and it says where it was done before.
    const again = await forgetSourceRefEverywhere(world.ledger, { tenant: t }, HANDBOOK, undefined, (subject) =>
      world.erasure({ tenant: t, subject }),
    );
    expect(again).toMatchObject({ receipts: [], alreadyErased: ['a', 'b'], refused: [] });
  });

  it('the CLI erases a ref tenant-wide with --source-ref alone, and asks for --subject otherwise', async () => {
    const t = 'cli-wide';
    ok(await recordMemory(world.ledger, { tenant: t, subject: 'x' }, fromHandbook('policy.returns', 'returns desk code RX-5521')));
    ok(await recordMemory(world.ledger, { tenant: t, subject: 'y' }, fromHandbook('policy.returns', 'returns desk code RX-5521')));
    const run = await runCli(['forget', '--tenant', t, '--source-ref', HANDBOOK, '--idempotency-key', 'withdraw-1'], world.env);
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result.receipts.map((r: { subject: string }) => r.subject)).toEqual(['x', 'y']);
    expect(result.receipts.every((r: { verification: { status: string } }) => r.verification.status === 'passed')).toBe(true);
    expect(run.stdout).not.toContain('RX-5521');
    // An auditor lists a subject's receipts.
    const listed = await runCli(['erasure', 'list', '--tenant', t, '--subject', 'x'], world.env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ tenant: t, subject: 'x', receipts: [result.receipts[0]] });

    const missing = await runCli(['forget', '--tenant', t], world.env);
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.stderr)).toMatchObject({ error: 'invalid_input', field: 'subject' });
  });
});
