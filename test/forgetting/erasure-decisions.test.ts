// The erasure pipeline's decisions, pure: tombstones for what is not yet
// forgotten, a receipt only after its tombstones, expiry by retention only
// for what is still active and due.
import { describe, expect, it } from 'vitest';
import { decide } from '../../src/domain/subject/decide.js';
import { record, runAll, sealed, T1, T2, T3 } from '../domain/fixtures.js';

const receipt = (memoryIds: string[], scope: 'memory' | 'subject' | 'source_ref' | 'retention' = 'memory') => ({
  receiptId: 'r-1',
  scope,
  memoryIds,
  destroyedKeyIds: [],
  invalidatedArtifactIds: [],
  issuedAt: T3,
});

describe('erasure decisions', () => {
  const { state } = runAll([
    record('m-1', sealed()),
    record('m-2', sealed({ key: 'shipping.city', value: { type: 'text', text: 'Lisbon' } })),
  ]);

  it('tombstones the listed entries in sequence order, skips what is forgotten, and refuses an unknown id', () => {
    const both = decide(state, { type: 'EraseMemories', memoryIds: ['m-2', 'm-1'], reason: 'asked', now: T3 });
    expect(both.ok && both.events.map((e) => [e.type, (e.data as { memoryId: string }).memoryId])).toEqual([
      ['MemoryForgotten', 'm-1'],
      ['MemoryForgotten', 'm-2'],
    ]);
    const after = runAll([{ type: 'EraseMemories', memoryIds: ['m-1'], now: T3 }], state).state;
    expect(decide(after, { type: 'EraseMemories', memoryIds: ['m-1'], now: T3 })).toEqual({ ok: true, events: [] });
    expect(decide(state, { type: 'EraseMemories', memoryIds: ['m-9'], now: T3 })).toMatchObject({
      ok: false,
      rejection: { code: 'memory_not_found', field: 'memoryIds' },
    });
  });

  it('issues a receipt only after its tombstones, and for a subject only once it is forgotten', () => {
    expect(decide(state, { type: 'IssueDeletionReceipt', receipt: receipt(['m-1']), now: T3 })).toMatchObject({
      ok: false,
      rejection: { code: 'memory_not_active' },
    });
    const erased = runAll([{ type: 'EraseMemories', memoryIds: ['m-1'], now: T3 }], state).state;
    expect(decide(erased, { type: 'IssueDeletionReceipt', receipt: receipt(['m-1']), now: T3 })).toMatchObject({
      ok: true,
      events: [{ type: 'DeletionReceiptIssued' }],
    });
    expect(decide(erased, { type: 'IssueDeletionReceipt', receipt: receipt(['m-1', 'm-2'], 'subject'), now: T3 })).toMatchObject({
      ok: false,
    });
    const gone = runAll([{ type: 'EraseSubject', now: T3 }], state).state;
    expect(decide(gone, { type: 'EraseSubject', now: T3 })).toEqual({ ok: true, events: [] });
    expect(decide(gone, { type: 'IssueDeletionReceipt', receipt: receipt(['m-1', 'm-2'], 'subject'), now: T3 })).toMatchObject({
      ok: true,
    });
    expect(decide(gone, { type: 'EraseMemories', memoryIds: ['m-1'], now: T3 })).toMatchObject({
      ok: false,
      rejection: { code: 'already_forgotten' },
    });
  });

  it('expires by retention what is active and due, with the due instant it was given', () => {
    const result = decide(state, {
      type: 'ExpireByRetention',
      expirations: [
        { memoryId: 'm-2', expiresAt: T1 },
        { memoryId: 'm-1', expiresAt: T3 },
        { memoryId: 'm-9', expiresAt: T1 },
      ],
      now: T2,
    });
    expect(result).toEqual({ ok: true, events: [{ type: 'MemoryExpired', data: { memoryId: 'm-2', expiresAt: T1, expiredAt: T2 } }] });
    const expired = runAll([{ type: 'ExpireByRetention', expirations: [{ memoryId: 'm-2', expiresAt: T1 }], now: T2 }], state).state;
    expect(decide(expired, { type: 'ExpireByRetention', expirations: [{ memoryId: 'm-2', expiresAt: T1 }], now: T3 })).toEqual({
      ok: true,
      events: [],
    });
  });
});
