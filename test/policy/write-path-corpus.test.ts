// The labeled candidate writes (issue 17 "Done when") through the real write
// path: recordMemory on a ledger over PostgreSQL, under the writer's
// credential and marks, with the strict rows in a tenant whose policy was
// set through `WritePolicies.set`. What the ledger did is read back from the
// store: a refusal appended nothing to the subject's stream, a candidate is
// a MemoryProposed, an accept is an active entry (with an expiry for the TTL
// rows). Prints the escape and false hold rates (README "Write gate").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WritePolicies } from '../../src/commands/policy/write-policies.js';
import { recordMemory, type RecordResult } from '../../src/commands/record.js';
import type { SourceType } from '../../src/domain/entry/source.js';
import { subjectStreamName } from '../../src/domain/events/stream-names.js';
import { DEFAULT_POLICY_DOCUMENT, PERSONAL_IDENTIFIERS_REFUSED_RULE } from '../../src/domain/policy/default-policy.js';
import type { Result } from '../../src/domain/result/result.js';
import { openTestLedger, type TestLedger } from '../support/ledger.js';
import { CORPUS_ROWS } from './corpus/rows.js';
import { tally, type Outcome } from './corpus/tally.js';
import { CASES, type CaseTag, type Expectation, type WriteRow } from './corpus/write-row.js';
import { credentialFor } from './gate-fixtures.js';

let t: TestLedger;
const COUNTED = CORPUS_ROWS.filter((r) => r.gateCannotDecide === undefined);
const written = new Map<string, { result: Result<RecordResult>; decision: Expectation; events: string[] }>();

const tenantOf = (row: WriteRow) => (row.policy === 'strict' ? 'corpus-strict' : 'corpus-default');
const subjectOf = (row: WriteRow) => `w-${row.id.replaceAll('.', '-')}`;

async function write(row: WriteRow) {
  const { ledger } = t;
  const tenant = tenantOf(row);
  const subject = subjectOf(row);
  const ceiling = (row.ceiling ?? (row.entry.source as { type: SourceType }).type) as SourceType;
  const context = { tenant, subject, credential: credentialFor(ceiling) };
  const result = await recordMemory(ledger, context, row.entry, { marks: row.marks as never });
  const events = (await ledger.eventStore.readStream(subjectStreamName(tenant, subject))).map((e) => e.type);
  let decision: Expectation;
  if (!result.ok) decision = 'reject';
  else if (result.result.decision === 'CANDIDATE') decision = 'candidate';
  else {
    const state = (await ledger.subjects.load(subjectStreamName(tenant, subject))).state;
    const stored = state.entries.get(result.result.memoryId);
    decision = stored?.status === 'active' && stored.expiresAt !== undefined ? 'accept_with_ttl' : 'accept';
  }
  written.set(row.id, { result, decision, events });
}

beforeAll(async () => {
  t = await openTestLedger('write_path_corpus');
  const strict = await new WritePolicies(t.ledger.eventStore, t.ledger.clock).set('corpus-strict', {
    ...DEFAULT_POLICY_DOCUMENT,
    rules: [...DEFAULT_POLICY_DOCUMENT.rules, PERSONAL_IDENTIFIERS_REFUSED_RULE],
    consentRequiredAt: 'personal',
  });
  if (!strict.ok) throw new Error('the strict policy was refused');
  // Two at a time: each row is its own subject, so order does not matter.
  for (let i = 0; i < CORPUS_ROWS.length; i += 2) await Promise.all(CORPUS_ROWS.slice(i, i + 2).map(write));
}, 300_000);
afterAll(async () => {
  await t?.close();
});

const outcomes = (): Outcome[] => COUNTED.map((row) => ({ row, decision: written.get(row.id)!.decision }));

describe('the write corpus through the write path', () => {
  it('lets no secret or injection escape, and keeps the escape and false hold rates under 5%', () => {
    const figures = tally('write corpus through recordMemory', outcomes());
    console.log(figures.lines.join('\n'));
    expect(written.size).toBe(CORPUS_ROWS.length);
    expect(figures.secretEscapes).toEqual([]);
    expect(figures.injectionEscapes).toEqual([]);
    expect(figures.escapeRate).toBeLessThan(0.05);
    expect(figures.falseHoldRate).toBeLessThan(0.05);
  });

  it.each(Object.keys(CASES) as CaseTag[])('case %s: every counted row ends as labelled, in the store', (tag) => {
    const wrong = COUNTED.filter((row) => row.case === tag)
      .map((row) => ({ row, got: written.get(row.id)! }))
      .filter(({ row, got }) => row.expect !== got.decision)
      .map(({ row, got }) => `${row.id}: expected ${row.expect}, got ${got.decision}`);
    expect(wrong).toEqual([]);
  });

  it('appends nothing for a refusal, a MemoryProposed for a candidate, a MemoryRecorded for an accept', () => {
    for (const row of COUNTED) {
      const { decision, events, result } = written.get(row.id)!;
      const expected = decision === 'reject' ? [] : decision === 'candidate' ? ['MemoryProposed'] : ['MemoryRecorded'];
      expect(events, row.id).toEqual(expected);
      if (result.ok) expect(result.result.gate?.policyVersion, row.id).toBe(row.policy === 'strict' ? 1 : 0);
    }
  });

  it('refuses secrets as secrets and over-claims as over-claims, naming the field', () => {
    for (const row of COUNTED.filter((r) => r.case === 'SC' || (r.case === 'OC' && r.expect === 'reject'))) {
      const { result } = written.get(row.id)!;
      expect(result.ok, row.id).toBe(false);
      if (result.ok) continue;
      expect(result.rejection.code, row.id).toBe(row.case === 'SC' ? 'secret_detected' : 'source_type_above_credential');
      expect(result.rejection.field, row.id).toMatch(row.case === 'SC' ? /^(content|value\.[a-z.]+|source\.refs\.\d+)$/ : /^source\.type$/);
    }
  });

  it('the unmarked one-off rows need an extractor: without a mark the write path accepts them with no TTL', () => {
    const unmarked = CORPUS_ROWS.filter((r) => r.gateCannotDecide !== undefined);
    expect(unmarked.map((r) => [r.id, written.get(r.id)!.decision])).toEqual(unmarked.map((r) => [r.id, 'accept']));
  });
});
