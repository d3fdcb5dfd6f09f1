// How faithful a summary is to the raw entries it was built from (the daily
// evaluation): key facts recalled (the must-preserve set stated exactly and
// cited), text facts recalled (the facts of the entries' words, stated by
// what cites them: issue 15), false new facts (statements that rest on no
// input, say what no cited input says, or whose words hold a fact their
// inputs do not have), unresolved conflicts kept as conflicts, and the
// tokens saved against putting the raw entries into a context. Pure;
// findings name keys, ids and fact kinds, never values.
import type { CountTokens } from '../../domain/consolidation/cold-tier.js';
import type { ConflictRef, ConsolidationInput } from '../../domain/consolidation/input.js';
import type { MustPreserveFact } from '../../domain/consolidation/must-preserve.js';
import type { SummarizerOutput } from '../../domain/consolidation/output.js';
import { renderRawEntry } from '../../domain/consolidation/rendering.js';
import { statementDifferences } from '../../domain/consolidation/statement-diff.js';
import { canonicalValueJson } from '../../domain/canonical/canonical-value.js';
import type { TextFactKind } from '../../domain/consolidation/text-facts/fact.js';
import { checkWords, type FactStatus, type WordCheck } from '../../domain/consolidation/word-check.js';

export interface FalseStatement {
  readonly kind: 'claim' | 'open_item' | 'summary_text';
  readonly key?: string;
  readonly derivedFrom: readonly string[];
  readonly why:
    | 'derives_from_nothing'
    | 'cites_a_non_input'
    | 'no_source_about_its_key'
    | 'differs_from_its_sources'
    /** Its words hold a fact (of these kinds) that its inputs do not have, or state one of their negations the other way. */
    | 'words_unsupported';
  readonly factKinds?: readonly TextFactKind[];
}

/** A fact of an entry's words that what cites the entry does not state as written. */
export interface MissingTextFact {
  readonly memoryId: string;
  readonly factKind: TextFactKind;
  readonly status: Exclude<FactStatus, 'stated'>;
}

export interface SummaryMetrics {
  readonly keyFacts: number;
  readonly keyFactsRecalled: number;
  readonly missingKeyFacts: readonly string[];
  readonly textFacts: number;
  readonly textFactsRecalled: number;
  readonly missingTextFacts: readonly MissingTextFact[];
  readonly statements: number;
  readonly falseStatements: readonly FalseStatement[];
  readonly conflicts: number;
  readonly conflictsRetained: number;
  readonly droppedConflicts: readonly string[];
  readonly rawTokens: number;
  readonly summaryTokens: number;
}

export function measureSummary(
  inputs: readonly ConsolidationInput[],
  mustPreserve: readonly MustPreserveFact[],
  conflicts: readonly ConflictRef[],
  output: SummarizerOutput,
  countTokens: CountTokens,
): SummaryMetrics {
  const byId = new Map(inputs.map((i) => [i.memoryId, i]));
  const missing = mustPreserve.filter((fact) => !recalled(fact, output)).map((f) => f.memoryId);
  const falseStatements: FalseStatement[] = [];
  for (const claim of output.claims) {
    const why = claimProblem(claim.derivedFrom, byId, (sources) => {
      const sameKey = sources.filter((s) => s.key === claim.key);
      if (sameKey.length === 0) return 'no_source_about_its_key';
      return sameKey.some((s) => statementDifferences(s, claim).length === 0) ? undefined : 'differs_from_its_sources';
    });
    if (why) falseStatements.push({ kind: 'claim', key: claim.key, derivedFrom: claim.derivedFrom, why });
  }
  for (const item of output.openItems) {
    const why = claimProblem(item.derivedFrom, byId, () => undefined);
    if (why) falseStatements.push({ kind: 'open_item', derivedFrom: item.derivedFrom, why });
  }
  const words = checkWords(inputs, output);
  falseStatements.push(...unsupportedWords(words, falseStatements));
  const missingText = words.facts.flatMap(({ fact, status }): MissingTextFact[] =>
    status === 'stated' ? [] : [{ memoryId: fact.memoryId, factKind: fact.kind, status }],
  );
  const dropped = conflicts.filter((c) => !retained(c, output, byId)).map((c) => c.conflictId);
  return {
    keyFacts: mustPreserve.length,
    keyFactsRecalled: mustPreserve.length - missing.length,
    missingKeyFacts: missing,
    textFacts: words.facts.length,
    textFactsRecalled: words.facts.length - missingText.length,
    missingTextFacts: missingText,
    // The summary text is a statement too.
    statements: output.claims.length + output.openItems.length + 1,
    falseStatements,
    conflicts: conflicts.length,
    conflictsRetained: conflicts.length - dropped.length,
    droppedConflicts: dropped,
    rawTokens: inputs.reduce((n, i) => n + countTokens(renderRawEntry(i)), 0),
    summaryTokens: countTokens(output.summary),
  };
}

/** Claims, open items and the summary text whose words hold what their inputs do not: one false statement each. */
function unsupportedWords(words: WordCheck, found: readonly FalseStatement[]): FalseStatement[] {
  const byPart = new Map<string, { statement: FalseStatement; kinds: Set<TextFactKind> }>();
  for (const u of words.unsupported) {
    const part = u.in;
    const id = part.part === 'summary' ? 'summary' : `${part.part}:${part.index}`;
    const entry = byPart.get(id) ?? {
      statement:
        part.part === 'summary'
          ? { kind: 'summary_text' as const, derivedFrom: [], why: 'words_unsupported' as const }
          : part.part === 'claim'
            ? { kind: 'claim' as const, key: part.claimKey, derivedFrom: part.derivedFrom, why: 'words_unsupported' as const }
            : { kind: 'open_item' as const, derivedFrom: part.derivedFrom, why: 'words_unsupported' as const },
      kinds: new Set<TextFactKind>(),
    };
    entry.kinds.add(u.factKind);
    byPart.set(id, entry);
  }
  // A claim or open item already false for its typed statement is counted once.
  const already = new Set(found.map((f) => `${f.kind}:${f.derivedFrom.join(',')}:${f.key ?? ''}`));
  return [...byPart.values()]
    .map(({ statement, kinds }) => ({ ...statement, factKinds: [...kinds].sort() }))
    .filter((s) => !already.has(`${s.kind}:${s.derivedFrom.join(',')}:${s.key ?? ''}`));
}

function claimProblem(
  derivedFrom: readonly string[],
  byId: ReadonlyMap<string, ConsolidationInput>,
  judge: (sources: ConsolidationInput[]) => FalseStatement['why'] | undefined,
): FalseStatement['why'] | undefined {
  if (derivedFrom.length === 0) return 'derives_from_nothing';
  const sources = derivedFrom.map((id) => byId.get(id));
  if (sources.some((s) => s === undefined)) return 'cites_a_non_input';
  return judge(sources as ConsolidationInput[]);
}

function recalled(fact: MustPreserveFact, output: SummarizerOutput): boolean {
  if (fact.openItem) return output.openItems.some((o) => o.derivedFrom.includes(fact.memoryId));
  return output.claims.some(
    (c) => c.key === fact.key && c.derivedFrom.includes(fact.memoryId) && statementDifferences(fact, c).length === 0,
  );
}

/** Listed as unresolved, and no claim states one of its sides unmarked or merges disagreeing sides. */
function retained(conflict: ConflictRef, output: SummarizerOutput, byId: ReadonlyMap<string, ConsolidationInput>): boolean {
  if (!output.conflicts.includes(conflict.conflictId)) return false;
  const members = new Set(conflict.memoryIds);
  for (const claim of output.claims) {
    const sides = claim.derivedFrom.filter((id) => members.has(id));
    if (sides.length === 0) continue;
    if (!(claim.conflictIds ?? []).includes(conflict.conflictId)) return false;
    const statements = new Set(
      sides.flatMap((id) => {
        const input = byId.get(id);
        return input ? [JSON.stringify([canonicalValueJson(input.value), input.polarity])] : [];
      }),
    );
    if (statements.size > 1) return false;
  }
  return true;
}
