// The loss gate, one fixture per reason (DESIGN section 5, seed 000): each
// bad summary is rejected with exactly the reasons it earns; the faithful
// summary of the same inputs passes.
import { beforeAll, describe, expect, it } from 'vitest';
import type { CountTokens } from '../../src/domain/consolidation/cold-tier.js';
import { summarizeDeterministically } from '../../src/domain/consolidation/deterministic-summary.js';
import { checkGate } from '../../src/domain/consolidation/gate.js';
import type { ConflictRef, ConsolidationInput } from '../../src/domain/consolidation/input.js';
import { extractMustPreserve } from '../../src/domain/consolidation/must-preserve.js';
import type { SummarizerOutput } from '../../src/domain/consolidation/output.js';
import { loadTokenCounter } from '../../src/infrastructure/summarizer/tokenizer.js';
import { bool, claimOf, conflict, entity, input, num, output, text } from './fixtures.js';

let countTokens: CountTokens;
beforeAll(async () => {
  countTokens = await loadTokenCounter();
});

function gate(inputs: ConsolidationInput[], out: SummarizerOutput, conflicts: ConflictRef[] = [], allowance = 10_000) {
  return checkGate({
    inputs,
    mustPreserve: extractMustPreserve(inputs),
    conflicts,
    output: out,
    summaryTokenAllowance: allowance,
    countTokens,
  });
}

function codes(inputs: ConsolidationInput[], out: SummarizerOutput, conflicts: ConflictRef[] = [], allowance = 10_000): string[] {
  const result = gate(inputs, out, conflicts, allowance);
  return result.passed ? [] : result.reasons.map((r) => r.code).sort();
}

/** The deterministic summary of the inputs passes: the fixture's inputs are consistent. */
function faithfulPasses(inputs: ConsolidationInput[], conflicts: ConflictRef[] = []) {
  const faithful = summarizeDeterministically({ inputs, conflicts });
  expect(gate(inputs, faithful, conflicts)).toMatchObject({ passed: true });
}

describe('the loss gate rejects', () => {
  it('a missing must-preserve fact (missing_fact)', () => {
    const never = input('m-1', 'contact.phone_calls', bool(true), { polarity: 'negated' });
    const pref = input('m-2', 'notification.channel', text('sms'));
    faithfulPasses([never, pref]);
    expect(codes([never, pref], output([claimOf(pref)]))).toEqual(['missing_fact']);
    const result = gate([never, pref], output([claimOf(pref)]));
    expect(!result.passed && result.reasons[0]).toMatchObject({ memoryId: 'm-1', claimKey: 'contact.phone_calls' });
  });

  it('double negation: "not never" restated with one negation dropped (polarity_flipped)', () => {
    // "It is not true that she never wants calls": never-calls = true, negated.
    const notNever = input('m-1', 'contact.never_call', bool(true), {
      polarity: 'negated',
      content: 'It is not true that she never wants phone calls.',
    });
    faithfulPasses([notNever]);
    expect(codes([notNever], output([claimOf(notNever, { polarity: 'affirmed' })]))).toEqual(['polarity_flipped']);
    // Keeping both negations passes; "simplifying" them into another value is a change of value.
    expect(codes([notNever], output([claimOf(notNever)]))).toEqual([]);
    expect(codes([notNever], output([claimOf(notNever, { value: bool(false), polarity: 'affirmed' })]))).toEqual([
      'polarity_flipped',
      'value_changed',
    ]);
  });

  it('close numbers: 72 restated as 27 (value_changed)', () => {
    const wait = input('m-1', 'order.refund.wait', num('72', 'h'), { kind: 'semantic' });
    faithfulPasses([wait]);
    expect(codes([wait], output([claimOf(wait, { value: num('27', 'h') })]))).toEqual(['value_changed']);
    expect(codes([wait], output([claimOf(wait, { value: num('72.0', 'h') })]))).toEqual([]);
  });

  it('unit conversion: 72 h as 3 d is the same value; 72 h as 72 d or as a bare 72 is not (unit_changed)', () => {
    const wait = input('m-1', 'order.refund.wait', num('72', 'h'));
    expect(codes([wait], output([claimOf(wait, { value: num('3', 'd') })]))).toEqual([]);
    expect(codes([wait], output([claimOf(wait, { value: num('259200', 's') })]))).toEqual([]);
    expect(codes([wait], output([claimOf(wait, { value: num('72', 'd') })]))).toEqual(['unit_changed']);
    expect(codes([wait], output([claimOf(wait, { value: num('72') })]))).toEqual(['unit_changed']);
    expect(codes([wait], output([claimOf(wait, { value: num('72', 'kg') })]))).toEqual(['unit_changed']);
  });

  it('same-name entities with different ids: two people called Li Wei are not one (value_changed)', () => {
    const manager = input('m-1', 'contact.manager', entity('person:li-wei-4711'), { content: 'Her manager is Li Wei.' });
    const courier = input('m-2', 'delivery.courier', entity('person:li-wei-9012'), { content: 'The courier is also called Li Wei.' });
    faithfulPasses([manager, courier]);
    const conflated = output([claimOf(manager), claimOf(courier, { value: entity('person:li-wei-4711') })]);
    expect(codes([manager, courier], conflated)).toEqual(['value_changed']);
    const result = gate([manager, courier], conflated);
    expect(!result.passed && result.reasons.map((r) => r.memoryId)).toEqual(['m-2']);
  });

  it("cross-project preferences: a preference of one project is not everyone's (scope_changed)", () => {
    const shopA = input('m-1', 'notification.preference', text('sms'), { scopes: { project: 'shop-a' } });
    const shopB = input('m-2', 'notification.preference', text('email'), { scopes: { project: 'shop-b' } });
    faithfulPasses([shopA, shopB]);
    expect(codes([shopA, shopB], output([claimOf(shopA, { scopes: {} }), claimOf(shopB, { scopes: {} })]))).toEqual([
      'scope_changed',
      'scope_changed',
    ]);
    // Merged into one unscoped claim: scopes lost, and one project's value replaced by the other's.
    expect(codes([shopA, shopB], output([claimOf(shopA, { scopes: {}, derivedFrom: ['m-1', 'm-2'] })]))).toEqual([
      'scope_changed',
      'scope_changed',
      'value_changed',
    ]);
  });

  it('a retracted source: restating what was withdrawn is a false new fact (false_new_fact)', () => {
    const current = input('m-2', 'shipping.address', text('Berlin'));
    // m-1 ("Hamburg") was retracted, so the selector did not make it an input.
    faithfulPasses([current]);
    const stale = output([
      claimOf(current),
      { key: 'shipping.address', scopes: {}, value: text('Hamburg'), polarity: 'affirmed', derivedFrom: ['m-1'] },
    ]);
    expect(codes([current], stale)).toEqual(['false_new_fact']);
    const result = gate([current], stale);
    expect(!result.passed && result.reasons[0]).toMatchObject({ code: 'false_new_fact', memoryId: 'm-1' });
  });

  it('a claim from nothing, or about a key none of its sources is about (false_new_fact)', () => {
    const pref = input('m-1', 'notification.channel', text('sms'));
    expect(
      codes(
        [pref],
        output([claimOf(pref), { key: 'payment.card', scopes: {}, value: text('visa'), polarity: 'affirmed', derivedFrom: [] }]),
      ),
    ).toEqual(['false_new_fact']);
    expect(
      codes(
        [pref],
        output([claimOf(pref), { key: 'payment.card', scopes: {}, value: text('visa'), polarity: 'affirmed', derivedFrom: ['m-1'] }]),
      ),
    ).toEqual(['false_new_fact']);
  });

  it('a fact stated without its id in derivedFrom (missing_derivation)', () => {
    // The same limit recorded twice for two periods: both ids must be cited.
    const early = input('m-1', 'account.limit', num('500', 'MB'), { validTo: '2026-08-01T00:00:00.000Z' });
    const late = input('m-2', 'account.limit', num('500', 'MB'), { validFrom: '2026-09-01T00:00:00.000Z' });
    faithfulPasses([early, late]);
    expect(summarizeDeterministically({ inputs: [early, late], conflicts: [] }).claims).toHaveLength(1);
    expect(codes([early, late], output([claimOf(early)]))).toEqual(['missing_derivation']);
  });

  it('conflicting decisions: one side stated as settled (conflict_settled), the other dropped, the conflict unlisted', () => {
    const postgres = input('m-1', 'decision.database', text('postgres'), { kind: 'semantic', openConflictIds: ['c-1'] });
    const mysql = input('m-2', 'decision.database', text('mysql'), { kind: 'semantic', openConflictIds: ['c-1'] });
    const c1 = conflict('c-1', [postgres, mysql]);
    faithfulPasses([postgres, mysql], [c1]);
    expect(codes([postgres, mysql], output([claimOf(postgres, { conflictIds: [] })]), [c1])).toEqual([
      'conflict_settled',
      'conflicts_differ',
      'missing_fact',
    ]);
    // Both sides kept and the conflict listed, but stated as plain facts: still settled.
    expect(
      codes(
        [postgres, mysql],
        output([claimOf(postgres, { conflictIds: [] }), claimOf(mysql, { conflictIds: [] })], { conflicts: ['c-1'] }),
        [c1],
      ),
    ).toEqual(['conflict_settled']);
    // Merged into one statement that cites both sides.
    expect(codes([postgres, mysql], output([claimOf(postgres, { derivedFrom: ['m-1', 'm-2'] })], { conflicts: ['c-1'] }), [c1])).toEqual([
      'conflict_settled',
      'value_changed',
    ]);
  });

  it('a conflict set that differs from the open conflicts (conflicts_differ)', () => {
    const a = input('m-1', 'decision.database', text('postgres'), { openConflictIds: ['c-1'] });
    const b = input('m-2', 'decision.database', text('mysql'), { openConflictIds: ['c-1'] });
    const c1 = conflict('c-1', [a, b]);
    expect(codes([a, b], output([claimOf(a), claimOf(b)]), [c1])).toEqual(['conflicts_differ']);
    expect(codes([a, b], output([claimOf(a), claimOf(b)], { conflicts: ['c-1', 'c-9'] }), [c1])).toEqual(['conflicts_differ']);
  });

  it('an open item left out (open_item_dropped)', () => {
    const refund = input('m-1', 'task.refund.ORD-A1B2C3D4', text('awaits approval'), {
      content: 'refund for ORD-A1B2C3D4 awaits approval',
    });
    faithfulPasses([refund]);
    expect(codes([refund], output([]))).toEqual(['open_item_dropped']);
    expect(codes([refund], output([], { openItems: [{ text: 'refund pending', derivedFrom: [] }] }))).toEqual([
      'false_new_fact',
      'open_item_dropped',
    ]);
  });

  it('a summary text over the token allowance (over_budget), never a truncated one', () => {
    const pref = input('m-1', 'notification.channel', text('sms'));
    const long = output([claimOf(pref)], { summary: 'The user prefers SMS. '.repeat(200) });
    expect(codes([pref], long, [], 50)).toEqual(['over_budget']);
    expect(codes([pref], long, [], 5000)).toEqual([]);
  });

  it('each reason names keys and ids, never the values', () => {
    const secret = input('m-1', 'account.pin', num('4711'));
    const result = gate([secret], output([claimOf(secret, { value: num('1174') })]));
    expect(result.passed).toBe(false);
    expect(JSON.stringify(result)).not.toMatch(/4711|1174/);
  });
});
