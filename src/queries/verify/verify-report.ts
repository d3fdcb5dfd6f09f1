// What verify reports: the measures of many summaries added up, the
// findings of one, and when they are a loss.
import type { FalseStatement, MissingTextFact, SummaryMetrics } from './summary-metrics.js';

export interface Aggregate {
  readonly subjects: number;
  /** Null when there was nothing to measure (no key facts, no conflicts). */
  readonly keyFactRecall: number | null;
  /** The facts of the entries' words (issue 15) stated by what cites them; null when the words hold none. */
  readonly textFactRecall: number | null;
  readonly falseNewFactRate: number;
  readonly conflictRetentionRate: number | null;
  readonly averageTokenReduction: number | null;
  readonly keyFacts: number;
  readonly textFacts: number;
  readonly statements: number;
  readonly falseStatements: number;
  readonly conflicts: number;
}

export type VerifyFinding =
  | {
      readonly subject: string;
      readonly check: 'false_new_fact';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly statement: FalseStatement;
    }
  | {
      readonly subject: string;
      readonly check: 'key_fact_missing';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly memoryIds: readonly string[];
    }
  | {
      readonly subject: string;
      readonly check: 'text_fact_missing';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly facts: readonly MissingTextFact[];
    }
  | {
      readonly subject: string;
      readonly check: 'conflict_dropped';
      readonly summary: 'rebuilt' | 'published';
      readonly artifactId?: string;
      readonly conflictIds: readonly string[];
    }
  | { readonly subject: string; readonly check: 'stale_visible'; readonly artifactId: string; readonly cause: string }
  | { readonly subject: string; readonly check: 'generation_failed'; readonly message: string }
  /** recall refused: the projection passed over an event of the subject (what it would serve cannot be judged). */
  | { readonly subject: string; readonly check: 'projection_fault'; readonly message: string };

export interface VerifyReport {
  readonly tenant: string;
  readonly now: string;
  /** Subjects of the tenant with entries (not forgotten), and those sampled. */
  readonly population: number;
  readonly sampled: readonly string[];
  /** Summaries rebuilt from the raw layer by the current summarizer. */
  readonly rebuilt: Aggregate;
  /** The summaries recall serves now, against the raw entries they cover. */
  readonly published: Aggregate;
  readonly staleVisible: number;
  readonly findings: readonly VerifyFinding[];
  readonly passed: boolean;
  /** Why it did not pass, one line per kind of loss (empty when it passed). */
  readonly failures: readonly string[];
}

/** Nothing lost, nothing made up: every rate that is not null must be exactly what it is for a faithful summary. */
export function lossesOf(which: 'rebuilt' | 'published', a: Aggregate): string[] {
  const rate = (r: number) => r.toFixed(4);
  return [
    a.falseNewFactRate > 0 ? `${which} summaries state false new facts (rate ${rate(a.falseNewFactRate)})` : '',
    a.keyFactRecall !== null && a.keyFactRecall < 1 ? `${which} summaries lose key facts (recall ${rate(a.keyFactRecall)})` : '',
    a.textFactRecall !== null && a.textFactRecall < 1
      ? `${which} summaries lose facts of the words (recall ${rate(a.textFactRecall)})`
      : '',
    a.conflictRetentionRate !== null && a.conflictRetentionRate < 1
      ? `${which} summaries drop unresolved conflicts (retention ${rate(a.conflictRetentionRate)})`
      : '',
  ].filter((s) => s !== '');
}

export function metricFindings(
  subject: string,
  summary: 'rebuilt' | 'published',
  artifactId: string | undefined,
  m: SummaryMetrics,
): VerifyFinding[] {
  const at = artifactId !== undefined ? { artifactId } : {};
  return [
    ...m.falseStatements.map((statement): VerifyFinding => ({ subject, check: 'false_new_fact', summary, ...at, statement })),
    ...(m.missingKeyFacts.length > 0
      ? [{ subject, check: 'key_fact_missing', summary, ...at, memoryIds: m.missingKeyFacts } as const]
      : []),
    ...(m.missingTextFacts.length > 0 ? [{ subject, check: 'text_fact_missing', summary, ...at, facts: m.missingTextFacts } as const] : []),
    ...(m.droppedConflicts.length > 0
      ? [{ subject, check: 'conflict_dropped', summary, ...at, conflictIds: m.droppedConflicts } as const]
      : []),
  ];
}

export function aggregate(metrics: readonly SummaryMetrics[]): Aggregate {
  const sum = (f: (m: SummaryMetrics) => number) => metrics.reduce((n, m) => n + f(m), 0);
  const keyFacts = sum((m) => m.keyFacts);
  const textFacts = sum((m) => m.textFacts);
  const statements = sum((m) => m.statements);
  const falseStatements = sum((m) => m.falseStatements.length);
  const conflicts = sum((m) => m.conflicts);
  const reductions = metrics.filter((m) => m.rawTokens > 0).map((m) => 1 - m.summaryTokens / m.rawTokens);
  return {
    subjects: metrics.length,
    keyFactRecall: keyFacts === 0 ? null : sum((m) => m.keyFactsRecalled) / keyFacts,
    textFactRecall: textFacts === 0 ? null : sum((m) => m.textFactsRecalled) / textFacts,
    falseNewFactRate: statements === 0 ? 0 : falseStatements / statements,
    conflictRetentionRate: conflicts === 0 ? null : sum((m) => m.conflictsRetained) / conflicts,
    averageTokenReduction: reductions.length === 0 ? null : reductions.reduce((a, b) => a + b, 0) / reductions.length,
    keyFacts,
    textFacts,
    statements,
    falseStatements,
    conflicts,
  };
}
