// The default summarizer, deterministic and pure: entries that say the same
// thing (key, scopes, canonical value, polarity, open conflicts) become one
// claim derived from all of them, whose statement carries the sentences of
// their words that hold facts (issue 15); conflicts stay unresolved (each side is a claim
// marked with the conflict); open items are listed; the summary text is a
// template over the claims. Given a parent summary it starts from the
// parent's claims and adds what they do not cite — the same result as
// building from the raw inputs, which the metamorphic tests check.
import { canonicalJson } from '../canonical/canonical-json.js';
import { canonicalValue } from '../canonical/canonical-value.js';
import { normaliseScopes } from '../entry/scopes.js';
import type { ConflictRef, ConsolidationInput } from './input.js';
import { compareText } from './must-preserve.js';
import { isOpenItemKey } from './open-items.js';
import type { Claim, OpenItem, SummarizerOutput } from './output.js';
import { renderScopes, renderStatedValue } from './rendering.js';
import { joinStatements, openItemText, renderClaimLine, statementOf } from './statements.js';
import { uncertaintyOf } from '../compaction/uncertainty.js';

export const DETERMINISTIC_MODEL = 'deterministic-v2';
export const DETERMINISTIC_PROMPT = 'template-v2';

export interface SummaryRequest {
  /** The inputs to state (the hot tier). */
  readonly inputs: readonly ConsolidationInput[];
  /** Every open conflict of the subject. */
  readonly conflicts: readonly ConflictRef[];
  /** The parent's output, when the parent may serve (same inputEpoch, not STALE). */
  readonly parent?: SummarizerOutput;
}

export function summarizeDeterministically(request: SummaryRequest): SummarizerOutput {
  const hot = new Map(request.inputs.map((i) => [i.memoryId, i]));
  const groups = new Map<string, { claim: Omit<Claim, 'derivedFrom' | 'statement'>; derivedFrom: Set<string> }>();
  const addToGroup = (claim: Omit<Claim, 'derivedFrom' | 'statement'>, ids: readonly string[]) => {
    const groupKey = claimGroupKey(claim);
    const group = groups.get(groupKey) ?? { claim, derivedFrom: new Set<string>() };
    for (const id of ids) group.derivedFrom.add(id);
    groups.set(groupKey, group);
  };
  const items = new Map<string, OpenItem>();
  const cited = new Set<string>();

  for (const claim of request.parent?.claims ?? []) {
    const ids = claim.derivedFrom.filter((id) => hot.has(id) && !isOpenItemKey(hot.get(id)!.key));
    if (ids.length === 0) continue;
    ids.forEach((id) => cited.add(id));
    addToGroup(withoutDerivation(claim), ids);
  }
  for (const item of request.parent?.openItems ?? []) {
    const ids = item.derivedFrom.filter((id) => hot.has(id) && isOpenItemKey(hot.get(id)!.key));
    if (ids.length === 0) continue;
    ids.forEach((id) => cited.add(id));
    items.set(ids.join(','), { text: item.text, derivedFrom: ids });
  }
  for (const input of request.inputs) {
    if (cited.has(input.memoryId)) continue;
    if (isOpenItemKey(input.key)) {
      items.set(input.memoryId, { text: openItemText(input), derivedFrom: [input.memoryId] });
      continue;
    }
    addToGroup(
      {
        key: input.key,
        scopes: normaliseScopes(input.scopes),
        value: input.value,
        polarity: input.polarity,
        ...(input.openConflictIds.length > 0 ? { conflictIds: [...input.openConflictIds] } : {}),
      },
      [input.memoryId],
    );
  }

  const wordsOf = (ids: ReadonlySet<string>) => joinStatements(request.inputs.filter((i) => ids.has(i.memoryId)).map(statementOf));
  const claims = [...groups.entries()]
    .sort(([a], [b]) => compareText(a, b))
    .map(([, g]): Claim => {
      const statement = wordsOf(g.derivedFrom);
      const uncertain = [...g.derivedFrom].some((id) => uncertaintyOf(hot.get(id)!) !== undefined);
      return {
        ...g.claim,
        derivedFrom: [...g.derivedFrom].sort(compareText),
        ...(uncertain ? { uncertain: true } : {}),
        ...(statement !== undefined ? { statement } : {}),
      };
    });
  const openItems = [...items.values()].sort((a, b) => compareText(a.derivedFrom[0] ?? '', b.derivedFrom[0] ?? ''));
  const conflicts = request.conflicts.map((c) => c.conflictId).sort(compareText);
  return { claims, openItems, conflicts, summary: summaryText(claims, openItems, request.conflicts) };
}

function withoutDerivation(claim: Claim): Omit<Claim, 'derivedFrom' | 'statement'> {
  return {
    key: claim.key,
    scopes: normaliseScopes(claim.scopes),
    value: claim.value,
    polarity: claim.polarity,
    ...(claim.conflictIds && claim.conflictIds.length > 0 ? { conflictIds: [...claim.conflictIds].sort(compareText) } : {}),
  };
}

/** Claims that say the same thing share this key. */
export function claimGroupKey(claim: Omit<Claim, 'derivedFrom' | 'statement'>): string {
  return canonicalJson([
    claim.key,
    normaliseScopes(claim.scopes),
    canonicalValue(claim.value),
    claim.polarity,
    [...(claim.conflictIds ?? [])].sort(compareText),
  ]);
}

/** The templated text: facts, open items, and unresolved conflicts stated as unresolved. */
export function summaryText(claims: readonly Claim[], openItems: readonly OpenItem[], conflicts: readonly ConflictRef[]): string {
  const lines: string[] = [];
  const undisputed = claims.filter((c) => !c.conflictIds || c.conflictIds.length === 0);
  const settled = undisputed.filter((c) => !c.uncertain);
  const uncertain = undisputed.filter((c) => c.uncertain);
  if (settled.length > 0) lines.push('Facts:', ...settled.map(renderClaimLine));
  if (uncertain.length > 0) lines.push('Uncertain (unverified; check before relying on it):', ...uncertain.map(renderClaimLine));
  if (openItems.length > 0) lines.push('Open items:', ...openItems.map((o) => `- ${o.text}`));
  if (conflicts.length > 0) {
    // Sides are apart (;), so a negated side's negation reaches only that side.
    lines.push('Unresolved conflicts (open; every side kept):');
    for (const conflict of [...conflicts].sort((a, b) => compareText(a.conflictId, b.conflictId))) {
      const sides = claims.filter((c) => c.conflictIds?.includes(conflict.conflictId)).map((c) => renderStatedValue(c.value, c.polarity));
      lines.push(
        `- ${conflict.conflictId} on ${conflict.key}${renderScopes(conflict.scopes)}, open between: ${sides.length > 0 ? sides.join('; ') : 'sides outside this summary'}`,
      );
    }
  }
  return lines.join('\n');
}
