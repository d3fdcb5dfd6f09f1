// The labeled candidate writes (issue 17 "Done when") through detectors and
// policy: per seed 001 D row and seed 003 write case, English and Chinese.
// Reports the bad-write escape rate (should have been held or refused, was
// accepted) and the false hold rate. Goals: no escape on secrets and
// injections, under 5% overall; printed for the closing note.
import { describe, expect, it } from 'vitest';
import { CORPUS_ROWS } from './corpus/rows.js';
import { tally } from './corpus/tally.js';
import { CASES, LABEL_RULES, type CaseTag, type WriteRow } from './corpus/write-row.js';
import { verdictOf } from './gate-fixtures.js';

const ROWS: readonly WriteRow[] = CORPUS_ROWS;
const COUNTED = ROWS.filter((r) => r.gateCannotDecide === undefined);

const results = COUNTED.map((row) => ({ row, verdict: verdictOf(row) }));

describe('write corpus', () => {
  it('has at least 200 rows with distinct ids, English and Chinese for every seed row and case', () => {
    expect(ROWS.length).toBeGreaterThanOrEqual(200);
    expect(new Set(ROWS.map((r) => r.id)).size).toBe(ROWS.length);
    for (const tag of Object.keys(CASES) as CaseTag[]) {
      expect(
        ROWS.some((r) => r.case === tag && r.lang === 'en'),
        `${tag} in English`,
      ).toBe(true);
      expect(
        ROWS.some((r) => r.case === tag && r.lang === 'zh'),
        `${tag} in Chinese`,
      ).toBe(true);
    }
    for (const expectation of ['accept', 'accept_with_ttl', 'candidate', 'reject'] as const)
      expect(ROWS.some((r) => r.expect === expectation)).toBe(true);
  });

  it('lets no secret or injection escape, and keeps the escape and false hold rates under 5%', () => {
    const figures = tally(
      'write corpus at the gate',
      results.map(({ row, verdict }) => ({ row, decision: verdict.decision })),
    );
    console.log(
      [
        `write corpus: ${ROWS.length} rows, ${COUNTED.length} counted (${ROWS.length - COUNTED.length} need an extractor's mark: ${ROWS.filter(
          (r) => r.gateCannotDecide,
        )
          .map((r) => r.id)
          .join(', ')})`,
        ...figures.lines,
        `label rules: ${LABEL_RULES.length} (see write-row.ts)`,
      ].join('\n'),
    );
    expect(figures.secretEscapes).toEqual([]);
    expect(figures.injectionEscapes).toEqual([]);
    expect(figures.escapeRate).toBeLessThan(0.05);
    expect(figures.falseHoldRate).toBeLessThan(0.05);
  });

  it.each(Object.keys(CASES) as CaseTag[])('case %s: every counted row gets its labelled decision', (tag) => {
    const wrong = results
      .filter(({ row }) => row.case === tag)
      .filter(({ row, verdict }) => row.expect !== verdict.decision)
      .map(({ row, verdict }) => `${row.id}: expected ${row.expect}, got ${verdict.decision} by ${verdict.ruleId}`);
    expect(wrong).toEqual([]);
  });

  it('refuses the secrets as secrets, naming the field and the kind, and over-claims as such', () => {
    for (const { row, verdict } of results.filter((r) => r.row.case === 'SC')) {
      expect(verdict.decision === 'reject' && verdict.refusal.code, row.id).toBe('secret_detected');
    }
    for (const { row, verdict } of results.filter((r) => r.row.case === 'OC' && r.row.expect === 'reject')) {
      expect(verdict.decision === 'reject' && verdict.refusal, row.id).toMatchObject({
        code: 'source_type_above_credential',
        field: 'source.type',
      });
    }
  });

  it('gives the transient and emotional rows a short TTL (a day for a choice, three for an emotion)', () => {
    for (const { row, verdict } of results.filter((r) => r.row.expect === 'accept_with_ttl')) {
      const expected = row.marks.includes('transient') ? 86_400 : 3 * 86_400;
      expect(verdict.decision === 'accept_with_ttl' && verdict.ttlSeconds, row.id).toBe(expected);
    }
  });

  it('says what the pure gate leaves to the decider or an extractor', () => {
    const notes = ROWS.filter((r) => r.beyondGate !== undefined || r.gateCannotDecide !== undefined).map((r) => r.case);
    expect(new Set(notes)).toEqual(new Set(['D3', 'WD', 'CC']));
  });
});
