// The gate, claim side: every claim and open item derives from inputs, and
// states what its sources say. A claim citing nothing, or only entries that
// are not inputs (a retracted source, say), or none about its key, is a
// false new fact: summaries are derived indexes, never new facts.
import type { Reasons } from './gate.js';
import type { ConsolidationInput } from './input.js';
import type { SummarizerOutput } from './output.js';
import { DIFFERENCE_MESSAGES, statementDifferences } from './statement-diff.js';

export function checkClaims(inputs: ReadonlyMap<string, ConsolidationInput>, output: SummarizerOutput, reasons: Reasons): void {
  for (const claim of output.claims) {
    const sources = citedInputs(claim.derivedFrom, inputs, claim.key, reasons);
    if (sources.length === 0) continue;
    const sameKey = sources.filter((s) => s.key === claim.key);
    if (sameKey.length === 0) {
      reasons.add({ code: 'false_new_fact', message: `a claim on ${claim.key} cites no input about ${claim.key}`, claimKey: claim.key });
      continue;
    }
    for (const source of sameKey) {
      for (const code of statementDifferences(source, claim)) {
        reasons.add({
          code,
          message: `${source.memoryId} (${source.key}) ${DIFFERENCE_MESSAGES[code] ?? 'differs'}`,
          memoryId: source.memoryId,
          claimKey: source.key,
        });
      }
    }
  }
  for (const item of output.openItems) citedInputs(item.derivedFrom, inputs, undefined, reasons);
}

function citedInputs(
  derivedFrom: readonly string[],
  inputs: ReadonlyMap<string, ConsolidationInput>,
  claimKey: string | undefined,
  reasons: Reasons,
): ConsolidationInput[] {
  const what = claimKey !== undefined ? `a claim on ${claimKey}` : 'an open item';
  const key = claimKey !== undefined ? { claimKey } : {};
  if (derivedFrom.length === 0) {
    reasons.add({ code: 'false_new_fact', message: `${what} derives from nothing`, ...key });
    return [];
  }
  const sources: ConsolidationInput[] = [];
  for (const id of derivedFrom) {
    const input = inputs.get(id);
    if (input) sources.push(input);
    else
      reasons.add({
        code: 'false_new_fact',
        message: `${what} cites ${id}, which is not an input (retracted, superseded, expired or never selected)`,
        memoryId: id,
        ...key,
      });
  }
  return sources;
}
