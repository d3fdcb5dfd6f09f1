// The gate, fact side: every must-preserve fact is stated by a claim that
// cites it, with the same scopes, canonical value and polarity; every open
// item is listed.
import type { Reasons } from './gate.js';
import type { MustPreserveFact } from './must-preserve.js';
import { citingByMemory, type SummarizerOutput } from './output.js';
import { DIFFERENCE_MESSAGES, statementDifferences } from './statement-diff.js';

export function checkFacts(facts: readonly MustPreserveFact[], output: SummarizerOutput, reasons: Reasons): void {
  // Looked up by memory id: thousands of facts against thousands of claims.
  const claimsCiting = citingByMemory(output.claims);
  const itemsCiting = citingByMemory(output.openItems);
  for (const fact of facts) {
    const where = `${fact.memoryId} (${fact.key})`;
    if (fact.openItem) {
      if (!itemsCiting.has(fact.memoryId)) {
        reasons.add({
          code: 'open_item_dropped',
          message: `open item ${where} is not listed`,
          memoryId: fact.memoryId,
          claimKey: fact.key,
        });
      }
      continue;
    }
    const citing = claimsCiting.get(fact.memoryId) ?? [];
    const sameKey = citing.filter((c) => c.key === fact.key);
    if (sameKey.some((c) => statementDifferences(fact, c).length === 0)) continue;
    if (citing.length === 0) {
      const uncited = output.claims.some((c) => c.key === fact.key && statementDifferences(fact, c).length === 0);
      reasons.add(
        uncited
          ? {
              code: 'missing_derivation',
              message: `${where} is stated, but no claim lists it in derivedFrom`,
              memoryId: fact.memoryId,
              claimKey: fact.key,
            }
          : { code: 'missing_fact', message: `${where} is missing from the summary`, memoryId: fact.memoryId, claimKey: fact.key },
      );
      continue;
    }
    if (sameKey.length === 0) {
      reasons.add({
        code: 'missing_fact',
        message: `${where} is cited only by claims about other keys`,
        memoryId: fact.memoryId,
        claimKey: fact.key,
      });
      continue;
    }
    // The closest claim explains what changed.
    const closest = sameKey.map((c) => statementDifferences(fact, c)).sort((a, b) => a.length - b.length)[0]!;
    for (const code of closest)
      reasons.add({ code, message: `${where} ${DIFFERENCE_MESSAGES[code] ?? 'differs'}`, memoryId: fact.memoryId, claimKey: fact.key });
  }
}
