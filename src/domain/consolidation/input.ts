// An input of a consolidation: a selected entry with its personal fields
// opened (in memory only; the caller decrypted them). Everything the
// must-preserve extraction, the summarizers and the gate look at.
import type { Scopes } from '../entry/scopes.js';
import type { Source } from '../entry/source.js';
import type { MemoryKind, Polarity, Sensitivity } from '../entry/vocabulary.js';
import type { EntryState } from '../subject/state.js';
import type { Instant } from '../values/instant.js';
import type { Value } from '../values/value.js';

export interface ConsolidationInput {
  readonly memoryId: string;
  readonly sequence: number;
  readonly kind: MemoryKind;
  readonly key: string;
  readonly scopes: Scopes;
  readonly value: Value;
  readonly polarity: Polarity;
  readonly content?: string;
  readonly source: Source;
  readonly confidence?: number;
  readonly sensitivity: Sensitivity;
  readonly validFrom: Instant;
  readonly validTo?: Instant;
  readonly corroborations: number;
  /** The open conflicts this entry is a member of, sorted. */
  readonly openConflictIds: readonly string[];
  /** The write gate's flags on it (absent: written before the gate). */
  readonly writeGate?: { readonly untrusted: boolean; readonly detections: readonly string[] };
}

/** An open conflict as the consolidator sees it: never settled by it. */
export interface ConflictRef {
  readonly conflictId: string;
  readonly key: string;
  readonly scopes: Scopes;
  readonly memoryIds: readonly string[];
}

export function toInput(
  entry: EntryState,
  opened: { readonly value: Value; readonly content?: string; readonly writeGate?: ConsolidationInput['writeGate'] },
  openConflictIds: ReadonlySet<string>,
): ConsolidationInput {
  return {
    memoryId: entry.memoryId,
    sequence: entry.sequence,
    kind: entry.kind,
    key: entry.key,
    scopes: entry.scopes,
    value: opened.value,
    polarity: entry.polarity,
    ...(opened.content !== undefined ? { content: opened.content } : {}),
    source: entry.source,
    ...(entry.confidence !== undefined ? { confidence: entry.confidence } : {}),
    sensitivity: entry.sensitivity,
    validFrom: entry.validFrom,
    ...(entry.validTo !== undefined ? { validTo: entry.validTo } : {}),
    corroborations: entry.corroborations,
    openConflictIds: entry.conflictIds.filter((id) => openConflictIds.has(id)).sort(),
    ...(opened.writeGate ? { writeGate: opened.writeGate } : {}),
  };
}
