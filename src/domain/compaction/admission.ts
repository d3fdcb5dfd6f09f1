// What may enter a summary at all (issue 23 item 5): content the write gate
// flagged as untrusted (external, or carrying injection markers) and entries
// above the tenant's summary sensitivity ceiling stay out of the summary and
// of the must-preserve set. They stay manifest inputs (the fences hold) and
// are listed as discards with their category; the raw entries remain in the
// log and recall serves them under its own rules (labelled, by ceiling).
import type { ConsolidationInput } from '../consolidation/input.js';
import { sensitivityRank, type Sensitivity } from '../entry/vocabulary.js';
import type { DiscardCategory } from './record.js';

export interface Withheld {
  readonly memoryId: string;
  readonly category: Extract<DiscardCategory, 'flagged_untrusted' | 'above_summary_ceiling'>;
  readonly reason: string;
}

export interface Admission {
  readonly admitted: readonly ConsolidationInput[];
  /** In the order of the inputs given (sequence order). */
  readonly withheld: readonly Withheld[];
}

export function admitToSummary(inputs: readonly ConsolidationInput[], ceiling: Sensitivity): Admission {
  const admitted: ConsolidationInput[] = [];
  const withheld: Withheld[] = [];
  for (const input of inputs) {
    const refusal = refusalOf(input, ceiling);
    if (refusal) withheld.push({ memoryId: input.memoryId, ...refusal });
    else admitted.push(input);
  }
  return { admitted, withheld };
}

function refusalOf(input: ConsolidationInput, ceiling: Sensitivity): Omit<Withheld, 'memoryId'> | undefined {
  const gate = input.writeGate;
  if (gate?.untrusted) {
    const injection = gate.detections.filter((d) => d.startsWith('injection:'));
    return {
      category: 'flagged_untrusted',
      reason:
        injection.length > 0
          ? `the write gate found ${[...new Set(injection)].sort().join(', ')}: untrusted content never enters a summary`
          : 'the write gate marked it untrusted (external origin): untrusted content never enters a summary',
    };
  }
  if (sensitivityRank(input.sensitivity) > sensitivityRank(ceiling)) {
    return {
      category: 'above_summary_ceiling',
      reason: `its sensitivity ${input.sensitivity} is above the tenant's summary ceiling ${ceiling}`,
    };
  }
  return undefined;
}
