// The evaluation harness (issue 18, item 4): every case played into fresh
// tenants of a real ledger, then served under each condition asked for and
// scored by the domain's metrics. The verdict is blocking when any condition
// served a stale or unauthorized memory (never averaged away).
import { randomBytes } from 'node:crypto';
import { luresOf, type EvalCase } from '../domain/evaluation/case.js';
import { CONDITION_INFO, judgedOn, type Condition } from '../domain/evaluation/conditions.js';
import {
  aggregate,
  isBlocking,
  scoreCase,
  type CaseObservation,
  type CaseScore,
  type ConditionMetrics,
} from '../domain/evaluation/metrics.js';
import type { Ledger } from '../commands/ledger.js';
import type { OpenReadSide } from '../queries/read-side.js';
import { playCase } from './play-history.js';
import { productionRetrieval, serve, servedItems, type Retrieval } from './serving.js';

export const DEFAULT_K = 5;

export interface EvaluationOptions {
  readonly conditions: readonly Condition[];
  readonly k?: number;
  /** Conditions C, D and E retrieve with this (default: production recall). */
  readonly retrieval?: Retrieval;
  /** Prefix of the run's fresh tenants (default: eval-<random>). */
  readonly tenantPrefix?: string;
}

export interface ConditionReport {
  readonly condition: Condition;
  readonly name: string;
  readonly metrics: ConditionMetrics;
  readonly blocking: boolean;
  /** The cases that served a stale or unauthorized memory, and which. */
  readonly regressions: ReadonlyArray<Pick<CaseScore, 'caseId' | 'stale' | 'unauthorized'>>;
  readonly cases: readonly CaseScore[];
}

export interface EvaluationReport {
  readonly k: number;
  readonly cases: number;
  readonly tenantPrefix: string;
  readonly conditions: readonly ConditionReport[];
  /** True when any condition served a stale or unauthorized memory. */
  readonly blocking: boolean;
}

export async function runEvaluation(
  ledger: Ledger,
  read: OpenReadSide,
  cases: readonly EvalCase[],
  options: EvaluationOptions,
): Promise<EvaluationReport> {
  const k = options.k ?? DEFAULT_K;
  const tenantPrefix = options.tenantPrefix ?? `eval-${randomBytes(4).toString('hex')}`;
  const retrieval = options.retrieval ?? productionRetrieval;
  const observed = new Map<Condition, CaseObservation[]>(options.conditions.map((c) => [c, []]));
  for (const [index, c] of cases.entries()) {
    const played = await playCase(ledger, read, c, `${tenantPrefix}-${index}`);
    const expected = {
      caseId: c.case_id,
      active: c.expected_active_memory,
      required: c.required_memory ?? c.expected_active_memory,
      invalidated: c.expected_invalidated_memory_ids,
      conflicts: c.expected_conflicts,
      lures: luresOf(c),
    };
    for (const condition of options.conditions) {
      if (!judgedOn(condition, c)) continue;
      const items = await serve(CONDITION_INFO[condition].serving, read, c, played, k, retrieval);
      observed.get(condition)!.push({ ...expected, served: servedItems(items, played) });
    }
  }
  const conditions = options.conditions.map((condition): ConditionReport => {
    const observations = observed.get(condition)!;
    const scores = observations.map((o) => scoreCase(o, k));
    const metrics = aggregate(scores, observations);
    return {
      condition,
      name: CONDITION_INFO[condition].name,
      metrics,
      blocking: isBlocking(metrics),
      regressions: scores
        .filter((s) => s.stale.length > 0 || s.unauthorized.length > 0)
        .map(({ caseId, stale, unauthorized }) => ({ caseId, stale, unauthorized })),
      cases: scores,
    };
  });
  return { k, cases: cases.length, tenantPrefix, conditions, blocking: conditions.some((c) => c.blocking) };
}
