// The parts of seed 001 D's rows and seed 003's write cases that the gate
// alone does not settle, through recordMemory on PostgreSQL (the gate's part
// of every row is in write-path-corpus.test.ts): a repeated preference is
// corroborated (D2), a withdrawal supersedes the old statement and a forget
// request erases it (user withdrawal), two concurrent updates of one field
// end as one decision each, never a lost write (seed 003 case 9).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forgetMemory } from '../../src/commands/forget.js';
import { recordMemory, supersedeMemory, type RecordResult } from '../../src/commands/record.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import type { Result } from '../../src/domain/result/result.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { credentialFor } from './gate-fixtures.js';

let t: TestLedger;
beforeAll(async () => {
  t = await openTestLedger('write_cases');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const USER = credentialFor('user_assertion');
const TOOL = credentialFor('verified_tool_fact');
const pref = (text: string, o: Record<string, unknown> = {}) => ({
  kind: 'profile',
  key: 'notification.preference',
  value: { type: 'text', text },
  source: { type: 'user_assertion', refs: ['msg://thread-1/turn-1'] },
  ...o,
});
const ok = (r: Result<RecordResult>): RecordResult => {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.rejection)}`);
  return r.result;
};
const stateOf = async (subject: string) => (await t.ledger.subjects.load(subjectStreamName('acme', subject))).state;

describe('write cases beyond the gate, through the write path', () => {
  it('D2: a preference seen again is corroborated, not stored twice', async () => {
    const context = { tenant: 'acme', subject: 'd2', credential: USER };
    const first = ok(await recordMemory(t.ledger, context, pref('sms')));
    const again = ok(await recordMemory(t.ledger, context, pref('sms', { source: { type: 'derived_summary', refs: ['summary://s-1'] } })));
    expect([first.decision, again.decision]).toEqual(['NEW', 'DUPLICATE']);
    expect(again.memoryId).toBe(first.memoryId);
    expect((await stateOf('d2')).entries.get(first.memoryId)?.corroborations).toBe(1);
  });

  it('user withdrawal: the negated statement supersedes the preference, and a forget request erases it', async () => {
    const context = { tenant: 'acme', subject: 'wd', credential: USER };
    const sms = ok(await recordMemory(t.ledger, context, pref('sms')));
    const withdrawn = ok(await recordMemory(t.ledger, context, pref('sms', { polarity: 'negated', content: 'I no longer want SMS.' })));
    expect(withdrawn.decision).toBe('SUPERSEDES');
    expect(withdrawn.supersedes).toEqual([sms.memoryId]);
    const receipt = await forgetMemory(t.ledger, { tenant: 'acme', subject: 'wd' }, withdrawn.memoryId, 'user asked to forget');
    expect(receipt.ok).toBe(true);
    const state = await stateOf('wd');
    expect(state.entries.get(sms.memoryId)?.status).toBe('superseded');
    expect(state.entries.get(withdrawn.memoryId)?.status).toBe('forgotten');
  });

  it('two concurrent updates of one field: both answered, one wins by supersession, nothing lost', async () => {
    const context = { tenant: 'acme', subject: 'cc', credential: USER };
    const [a, b] = await Promise.all([recordMemory(t.ledger, context, pref('email')), recordMemory(t.ledger, context, pref('sms'))]);
    const decisions = [ok(a).decision, ok(b).decision].sort();
    expect(decisions).toEqual(['NEW', 'SUPERSEDES']);
    const state = await stateOf('cc');
    const statuses = [...state.entries.values()].map((e) => e.status).sort();
    expect(statuses).toEqual(['active', 'superseded']);
  });

  it('two concurrent updates from the user and a tool: whichever lands first, the tool never replaces the user', async () => {
    const [user, tool] = await Promise.all([
      recordMemory(t.ledger, { tenant: 'acme', subject: 'cc-trust', credential: USER }, pref('上海')),
      recordMemory(
        t.ledger,
        { tenant: 'acme', subject: 'cc-trust', credential: TOOL },
        pref('杭州', { source: { type: 'verified_tool_fact', refs: ['tool://orders/call-1'] } }),
      ),
    ]);
    const state = await stateOf('cc-trust');
    expect(state.entries.get(ok(user).memoryId)?.status).toBe('active');
    // Tool first: the user supersedes it. User first: the tool conflicts with it.
    expect(ok(tool).decision === 'CONFLICTS' || ok(user).decision === 'SUPERSEDES').toBe(true);
  });

  it('episodes are append-only (seed 004 8.3): a same-key episode is added beside, the same one skipped, none superseded', async () => {
    const context = { tenant: 'acme', subject: 'episodes', credential: TOOL };
    const episode = (text: string) => ({
      kind: 'episodic',
      key: 'tool.orders.failure',
      value: { type: 'text', text },
      source: { type: 'verified_tool_fact', refs: ['tool://orders/call-9'] },
    });
    const first = ok(await recordMemory(t.ledger, context, episode('timeout above 50 ids')));
    const second = ok(await recordMemory(t.ledger, context, episode('rate limited at 10 rps')));
    const again = ok(await recordMemory(t.ledger, context, episode('timeout above 50 ids')));
    expect([first.decision, second.decision, again.decision]).toEqual(['NEW', 'NEW', 'DUPLICATE']);
    expect(second.supersedes).toEqual([]);
    expect(again.memoryId).toBe(first.memoryId);
    const replaced = await supersedeMemory(t.ledger, context, first.memoryId, episode('timeout above 40 ids'));
    expect(replaced.ok ? 'accepted' : replaced.rejection).toMatchObject({ code: 'append_only', field: 'memoryId' });
    const state = await stateOf('episodes');
    expect([...state.entries.values()].map((e) => e.status)).toEqual(['active', 'active']);
    // A profile of the same key still takes UPDATE: it supersedes the older profile, never an episode.
    const profile = (text: string) => ({ ...episode(text), kind: 'profile' });
    ok(await recordMemory(t.ledger, context, profile('batch by 50')));
    const updated = ok(await recordMemory(t.ledger, context, profile('batch by 40')));
    expect(updated.decision).toBe('SUPERSEDES');
    expect(updated.supersedes).toHaveLength(1);
    expect((await stateOf('episodes')).entries.get(first.memoryId)?.status).toBe('active');
  });
});
