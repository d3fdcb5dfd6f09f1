// The corpus figures (issue 17 "Done when"), shared by the gate-level run
// and the write-path run: the bad-write escape rate (should have been held
// or refused, was accepted), the false hold rate (should have passed, was
// held or refused), per case and the disagreements, as printed lines.
import { CASES, type CaseTag, type Expectation, type WriteRow } from './write-row.js';

export interface Outcome {
  readonly row: WriteRow;
  readonly decision: Expectation;
}

export const held = (d: Expectation) => d === 'candidate' || d === 'reject';
export const escapes = (outcomes: readonly Outcome[]) => outcomes.filter(({ row, decision }) => held(row.expect) && !held(decision));
export const falseHolds = (outcomes: readonly Outcome[]) => outcomes.filter(({ row, decision }) => !held(row.expect) && held(decision));
const rate = (n: number, of: number) => (of === 0 ? 0 : n / of);
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

export interface Tally {
  readonly escapeRate: number;
  readonly falseHoldRate: number;
  readonly secretEscapes: readonly Outcome[];
  readonly injectionEscapes: readonly Outcome[];
  readonly lines: readonly string[];
}

export function tally(label: string, outcomes: readonly Outcome[]): Tally {
  const shouldHold = outcomes.filter(({ row }) => held(row.expect));
  const shouldPass = outcomes.filter(({ row }) => !held(row.expect));
  const secrets = outcomes.filter(({ row }) => row.case === 'SC');
  const injections = outcomes.filter(({ row }) => (row.case === 'IJ' || row.case === 'DI') && held(row.expect));
  const agreeing = outcomes.filter(({ row, decision }) => row.expect === decision);
  const perCase = (Object.keys(CASES) as CaseTag[]).map((tag) => {
    const rows = outcomes.filter(({ row }) => row.case === tag);
    return `${tag} ${rows.filter(({ row, decision }) => row.expect === decision).length}/${rows.length}`;
  });
  const escaped = escapes(shouldHold).length;
  const falselyHeld = falseHolds(shouldPass).length;
  const disagreements = outcomes
    .filter(({ row, decision }) => row.expect !== decision)
    .map(({ row, decision }) => `${row.id} ${row.expect}->${decision}`);
  return {
    escapeRate: rate(escaped, shouldHold.length),
    falseHoldRate: rate(falselyHeld, shouldPass.length),
    secretEscapes: escapes(secrets),
    injectionEscapes: escapes(injections),
    lines: [
      `${label}: ${outcomes.length} writes counted`,
      `bad-write escape rate ${pct(rate(escaped, shouldHold.length))} (${escaped}/${shouldHold.length}); ` +
        `secrets ${escapes(secrets).length}/${secrets.length}, injections ${escapes(injections).length}/${injections.length}`,
      `false hold rate ${pct(rate(falselyHeld, shouldPass.length))} (${falselyHeld}/${shouldPass.length})`,
      `exact agreement ${agreeing.length}/${outcomes.length}; per case: ${perCase.join(', ')}`,
      `disagreements: ${disagreements.join('; ') || 'none'}`,
    ],
  };
}
