// The report as a table for a person at a terminal: one row per metric, one
// column per condition; "-" where a metric had nothing to judge.
import type { ConditionMetrics } from '../domain/evaluation/metrics.js';
import { CONDITION_INFO } from '../domain/evaluation/conditions.js';
import type { EvaluationReport } from './run.js';

const ROWS: ReadonlyArray<readonly [string, keyof ConditionMetrics, 'rate' | 'number']> = [
  ['cases', 'cases', 'number'],
  ['Memory Recall@K', 'memoryRecallAtK', 'rate'],
  ['Memory Precision@K', 'memoryPrecisionAtK', 'rate'],
  ['Required Memory Recall', 'requiredMemoryRecall', 'rate'],
  ['Stale Memory Rate', 'staleMemoryRate', 'rate'],
  ['Conflict Surfacing Rate', 'conflictSurfacingRate', 'rate'],
  ['Unauthorized Retrieval Rate', 'unauthorizedRetrievalRate', 'rate'],
  ['Source Citation Accuracy', 'sourceCitationAccuracy', 'rate'],
  ['Tokens per Useful Memory', 'tokensPerUsefulMemory', 'number'],
  ['stale memories served', 'staleServed', 'number'],
  ['unauthorized memories served', 'unauthorizedServed', 'number'],
];

const cell = (value: number | null, format: 'rate' | 'number') =>
  value === null ? '-' : format === 'rate' ? value.toFixed(3) : Number.isInteger(value) ? String(value) : value.toFixed(1);

export function renderTable(report: EvaluationReport): string {
  const header = ['metric (K=' + report.k + ')', ...report.conditions.map((c) => `${c.condition} ${CONDITION_INFO[c.condition].label}`)];
  const body = ROWS.map(([label, field, format]) => [label, ...report.conditions.map((c) => cell(c.metrics[field], format))]);
  const verdicts = ['verdict', ...report.conditions.map((c) => (c.blocking ? 'BLOCKING' : 'ok'))];
  const rows = [header, ...body, verdicts];
  const widths = header.map((_, i) => Math.max(...rows.map((r) => [...r[i]!].length)));
  const line = (r: readonly string[]) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  const out = [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line), line(verdicts)];
  for (const c of report.conditions)
    for (const r of c.regressions)
      out.push(
        `${c.condition} ${r.caseId}: ${[...r.stale.map((s) => `stale ${s}`), ...r.unauthorized.map((u) => `unauthorized ${u ?? '(not from this case)'}`)].join(', ')}`,
      );
  return `${out.join('\n')}\n`;
}
