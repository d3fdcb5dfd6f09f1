// Pure fixtures for the gate and the summarizer: inputs as the consolidator
// sees them (opened), without a store.
import type { ConflictRef, ConsolidationInput } from '../../src/domain/consolidation/input.js';
import type { Claim, SummarizerOutput } from '../../src/domain/consolidation/output.js';
import type { Value } from '../../src/domain/values/value.js';

let sequence = 0;

export function input(memoryId: string, key: string, value: Value, extra: Partial<ConsolidationInput> = {}): ConsolidationInput {
  return {
    memoryId,
    sequence: ++sequence,
    kind: 'profile',
    key,
    scopes: {},
    value,
    polarity: 'affirmed',
    source: { type: 'user_assertion', refs: [] },
    sensitivity: 'normal',
    validFrom: '2026-07-01T00:00:00.000Z',
    corroborations: 0,
    openConflictIds: [],
    ...extra,
  };
}

export const text = (t: string): Value => ({ type: 'text', text: t });
export const num = (amount: string, unit?: string): Value => ({ type: 'number', amount, ...(unit ? { unit } : {}) });
export const entity = (id: string): Value => ({ type: 'entity', id });
export const bool = (value: boolean): Value => ({ type: 'boolean', value });

/** The faithful claim of an input: its typed statement, and its content as the claim's words. */
export function claimOf(i: ConsolidationInput, patch: Partial<Claim> = {}): Claim {
  return {
    key: i.key,
    scopes: i.scopes,
    value: i.value,
    polarity: i.polarity,
    derivedFrom: [i.memoryId],
    ...(i.openConflictIds.length > 0 ? { conflictIds: [...i.openConflictIds] } : {}),
    ...(i.content !== undefined ? { statement: i.content } : {}),
    ...patch,
  };
}

export function output(claims: Claim[], extra: Partial<SummarizerOutput> = {}): SummarizerOutput {
  return { claims, openItems: [], conflicts: [], summary: 'summary', ...extra };
}

export function conflict(conflictId: string, members: ConsolidationInput[]): ConflictRef {
  return { conflictId, key: members[0]!.key, scopes: members[0]!.scopes, memoryIds: members.map((m) => m.memoryId) };
}
