// The write side through its command handlers, on a real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importEntries, validateImportLines } from '../../src/commands/import.js';
import { COMMAND_WINDOW } from '../../src/reads/streams/loaded-stream.js';
import { retractMemory, resolveConflict, expireMemories } from '../../src/commands/lifecycle.js';
import { recordMemory, supersedeMemory } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { InvalidInput } from '../../src/domain/validation/invalid-input.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';

let t: TestLedger;
beforeAll(async () => {
  t = await openTestLedger('write_side');
});
afterAll(async () => {
  await t?.close();
});

const preference = (text: string, source = 'user_assertion', validFrom?: string) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  source: { type: source, refs: [`msg://${text}`] },
  ...(validFrom ? { validFrom } : {}),
});

const ctx = (subject: string, idempotencyKey?: string) => ({ tenant: 'acme', subject, ...(idempotencyKey ? { idempotencyKey } : {}) });

async function streamTypes(subject: string): Promise<string[]> {
  const events = await t.ledger.eventStore.readStream(subjectStreamName('acme', subject));
  return events.map((e) => e.type);
}

describe('write decisions through the handlers', () => {
  it('records NEW, then DUPLICATE as a corroboration, then SUPERSEDES, then CONFLICTS', async () => {
    const first = await recordMemory(t.ledger, ctx('s1'), preference('email', 'user_assertion', '2026-07-01T00:00:00Z'));
    expect(first.ok && first.result.decision).toBe('NEW');
    const dup = await recordMemory(t.ledger, ctx('s1'), preference('email', 'user_assertion', '2026-07-01T00:00:00Z'));
    expect(dup.ok && dup.result).toMatchObject({ decision: 'DUPLICATE', memoryId: first.ok ? first.result.memoryId : '' });
    const newer = await recordMemory(t.ledger, ctx('s1'), preference('sms', 'user_assertion', '2026-07-10T00:00:00Z'));
    expect(newer.ok && newer.result).toMatchObject({ decision: 'SUPERSEDES', sequence: 2 });
    expect(newer.ok && newer.result.supersedes).toEqual([first.ok ? first.result.memoryId : '']);
    const weaker = await recordMemory(t.ledger, ctx('s1'), preference('phone', 'model_inference', '2026-07-11T00:00:00Z'));
    expect(weaker.ok && weaker.result.decision).toBe('CONFLICTS');
    expect(await streamTypes('s1')).toEqual([
      'MemoryRecorded',
      'MemoryCorroborated',
      'MemorySuperseded',
      'MemoryRecorded',
      'MemoryRecorded',
      'ConflictDetected',
    ]);
  });

  it('answers a retried command from its first result and appends nothing', async () => {
    const a = await recordMemory(t.ledger, ctx('s2', 'key-1'), preference('email'));
    const before = await streamTypes('s2');
    const b = await recordMemory(t.ledger, ctx('s2', 'key-1'), preference('email'));
    const replayed = a.ok ? { ok: true, result: { ...a.result, replayed: true } } : a;
    expect(b).toEqual(replayed);
    expect(await streamTypes('s2')).toEqual(before);
    // A fresh process (no cache) answers the same.
    const other = await openTestLedgerOnSameDatabase();
    try {
      const c = await recordMemory(other, ctx('s2', 'key-1'), preference('email'));
      expect(c).toEqual(replayed);
    } finally {
      await other.close();
    }
    expect(await streamTypes('s2')).toEqual(before);
  });

  it('rejects bad entries with InvalidInput naming the field and leaves the stream unchanged', async () => {
    await recordMemory(t.ledger, ctx('s3'), preference('email'));
    const before = await streamTypes('s3');
    const bad: Array<[unknown, string]> = [
      [{ kind: 'profile', value: { type: 'text', text: 'x' }, source: { type: 'user_assertion' } }, 'key'],
      [{ ...preference('x'), kind: 'gossip' }, 'kind'],
      [{ ...preference('x'), value: { type: 'number', amount: 'many' } }, 'value.amount'],
      [{ ...preference('x'), validFrom: '2026-13-45' }, 'validFrom'],
      [{ ...preference('x'), content: 'x'.repeat(20_000) }, 'content'],
    ];
    for (const [entry, field] of bad) {
      const error = await recordMemory(t.ledger, ctx('s3'), entry).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(InvalidInput);
      expect((error as InvalidInput).field).toBe(field);
    }
    expect(await streamTypes('s3')).toEqual(before);
  });

  it('supersedes, retracts, resolves conflicts and expires through the same loop', async () => {
    const a = await recordMemory(t.ledger, ctx('s4'), { ...preference('email'), expiresAt: '2027-01-01T00:00:00Z' });
    if (!a.ok) throw new Error('record failed');
    const b = await supersedeMemory(t.ledger, ctx('s4'), a.result.memoryId, preference('sms'));
    expect(b.ok && b.result.supersedes).toEqual([a.result.memoryId]);
    const unknown = await retractMemory(t.ledger, ctx('s4'), 'm-nope', 'wrong');
    expect(unknown).toMatchObject({ ok: false, rejection: { code: 'memory_not_found' } });
    const c = await recordMemory(t.ledger, ctx('s4'), preference('fax', 'model_inference'));
    if (!c.ok || !c.result.conflictId) throw new Error('expected a conflict');
    const resolved = await resolveConflict(t.ledger, ctx('s4'), c.result.conflictId, b.ok ? b.result.memoryId : '');
    expect(resolved.ok).toBe(true);
    const retracted = await retractMemory(t.ledger, ctx('s4'), c.result.memoryId, 'tool fact was wrong');
    expect(retracted.ok).toBe(true);
    const d = await recordMemory(t.ledger, ctx('s4'), {
      kind: 'episodic',
      key: 'order.status',
      value: { type: 'text', text: 'shipped' },
      source: { type: 'verified_tool_fact' },
      expiresAt: '2026-08-01T00:00:00Z',
    });
    expect(d.ok).toBe(true);
    const swept = await expireMemories(t.ledger, ctx('s4'), '2026-09-01T00:00:00Z');
    expect(swept.ok && swept.result.events.map((e) => e.type)).toEqual(['MemoryExpired']);
    const again = await expireMemories(t.ledger, ctx('s4'), '2026-09-01T00:00:00Z');
    expect(again.ok && again.result.events).toEqual([]);
  });

  it('imports in batches, validates every line first, and a second run appends nothing', async () => {
    const lines = Array.from({ length: 120 }, (_, i) => ({
      kind: 'semantic',
      key: `fact.k${i % 50}`,
      value: { type: 'number', amount: i, unit: 'h' },
      source: { type: 'verified_tool_fact' },
    }));
    expect(() => validateImportLines([...lines.slice(0, 5), { kind: 'semantic' }])).toThrow(/line 6: key/);
    expect(await streamTypes('s5')).toEqual([]);
    const entries = validateImportLines(lines);
    const imported = async () => {
      const outcome = await importEntries(t.ledger, ctx('s5'), entries, { importId: 'file-a', batchSize: 25 });
      if (!outcome.ok) throw new Error(outcome.rejection.message);
      return outcome.result;
    };
    const first = await imported();
    expect(first.batches).toBe(5);
    expect(first.decisions.NEW + first.decisions.SUPERSEDES).toBe(120);
    const count = (await streamTypes('s5')).length;
    const second = await imported();
    expect(second.alreadyImported).toBe(120);
    expect((await streamTypes('s5')).length).toBe(count);
  });

  it('recognises a re-import of the same lines whatever their number (past the retry window of recent commands)', async () => {
    const entries = validateImportLines(
      Array.from({ length: COMMAND_WINDOW + 476 }, (_, i) => ({
        kind: 'semantic',
        key: `fact.n${i}`,
        value: { type: 'text', text: `value ${i}` },
        source: { type: 'user_assertion' },
      })),
    );
    const run = async () => {
      const outcome = await importEntries(t.ledger, ctx('s6'), entries, { importId: 'file-big', batchSize: 500 });
      if (!outcome.ok) throw new Error(outcome.rejection.message);
      return outcome.result;
    };
    expect(await run()).toMatchObject({ lines: entries.length, rejected: [], batches: 3 });
    const count = (await streamTypes('s6')).length;
    // Also from a fresh process, which folds the stream from the log.
    const other = await openTestLedgerOnSameDatabase();
    try {
      const again = await importEntries(other, ctx('s6'), entries, { importId: 'file-big', batchSize: 500 });
      expect(again).toMatchObject({ ok: true, result: { alreadyImported: entries.length, rejected: [], batches: 0 } });
    } finally {
      await other.close();
    }
    expect(await run()).toMatchObject({ alreadyImported: entries.length, rejected: [], batches: 0 });
    expect((await streamTypes('s6')).length).toBe(count);
  });
});

async function openTestLedgerOnSameDatabase() {
  const { openLedger } = await import('../../src/runtime/open-ledger.js');
  return openLedger({ env: t.env });
}
