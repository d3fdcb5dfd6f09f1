// Stable fact anchors and evidence pointers (seed 002), derived only from
// the consolidation's inputs — the must-preserve set, open items, open
// conflicts, uncertain entries and the scopes — so the same inputs give the
// same anchors, ids and order. An anchor's statement restates personal
// values: it goes to the sealed statements, never into the clear record.
import type { ConflictRef, ConsolidationInput } from '../consolidation/input.js';
import { compareText, type MustPreserveFact } from '../consolidation/must-preserve.js';
import { renderTyped, withStatement } from '../consolidation/rendering.js';
import { openItemText, statementOf } from '../consolidation/statements.js';
import type { Manifest } from '../events/manifest.js';
import { COMPACTION_RECORD_VERSION, type Anchor, type AnchorKind, type AnchorStatements, type Pointer } from './record.js';
import { uncertaintyOf } from './uncertainty.js';

export const STAGE_ANCHOR = 'stage';
export const CONTRACT_ANCHOR = 'contract';
export const MANIFEST_POINTER = 'manifest';
export const memoryPointerId = (memoryId: string) => `mem:${memoryId}`;
export const conflictAnchorId = (conflictId: string) => `conflict:${conflictId}`;
export const factAnchorId = (memoryId: string) => `fact:${memoryId}`;
export const unknownAnchorId = (memoryId: string) => `unknown:${memoryId}`;

export interface AnchorSources {
  readonly manifest: Manifest;
  readonly trigger: string;
  /** Inputs admitted to the summary (hot and cold). */
  readonly admitted: readonly ConsolidationInput[];
  /** Every selected input, admitted or withheld: each gets an evidence pointer. */
  readonly selected: readonly ConsolidationInput[];
  readonly mustPreserve: readonly MustPreserveFact[];
  readonly conflicts: readonly ConflictRef[];
}

export interface Anchored {
  readonly anchors: readonly Anchor[];
  readonly pointers: readonly Pointer[];
  readonly statements: AnchorStatements;
}

export function deriveAnchors(s: AnchorSources): Anchored {
  const anchors: Anchor[] = [];
  const statements: Record<string, string> = {};
  const add = (anchor: Anchor, statement: string) => {
    anchors.push(anchor);
    statements[anchor.id] = statement;
  };
  const m = s.manifest;
  const first = s.selected.reduce((min, i) => Math.min(min, i.sequence), Number.MAX_SAFE_INTEGER);
  add(
    { id: STAGE_ANCHOR, kind: 'stage', status: 'settled', volatile: false, pointerIds: [MANIFEST_POINTER] },
    `${m.subject}: entries ${s.selected.length > 0 ? first : 0}..${m.newCoversThrough} at inputEpoch ${m.inputEpoch}, compacted at a ${s.trigger} boundary`,
  );
  add(
    { id: CONTRACT_ANCHOR, kind: 'contract', status: 'settled', volatile: false, pointerIds: [MANIFEST_POINTER] },
    `${COMPACTION_RECORD_VERSION}; ${m.selectorVersion}; prompt ${m.promptVersion}; model ${m.modelSnapshot}`,
  );
  const preserved = new Map(s.mustPreserve.map((f) => [f.memoryId, f]));
  for (const input of s.admitted) {
    const fact = preserved.get(input.memoryId);
    const cause = uncertaintyOf(input);
    if (!fact && !cause) continue;
    const status = cause || input.openConflictIds.length > 0 ? 'uncertain' : 'settled';
    add(
      {
        id: fact ? factAnchorId(input.memoryId) : unknownAnchorId(input.memoryId),
        kind: fact ? factKind(fact) : 'unknown',
        status,
        volatile: true,
        key: input.key,
        pointerIds: [memoryPointerId(input.memoryId), ...input.source.refs.map((_, n) => sourcePointerId(input.memoryId, n))],
      },
      fact?.openItem ? openItemText(input) : withStatement(renderTyped(input), statementOf(input)),
    );
  }
  const admitted = new Set(s.admitted.map((i) => i.memoryId));
  for (const conflict of s.conflicts) {
    const members = conflict.memoryIds.filter((id) => admitted.has(id)).sort(compareText);
    add(
      {
        id: conflictAnchorId(conflict.conflictId),
        kind: 'conflict',
        status: 'uncertain',
        volatile: true,
        key: conflict.key,
        pointerIds: [`conflict:${conflict.conflictId}`, ...members.map(memoryPointerId)],
      },
      `${conflict.conflictId} on ${conflict.key} is unresolved between ${conflict.memoryIds.join(', ')}: every side is kept, none is settled`,
    );
  }
  for (const [scope, ids] of scopesOf(s.admitted)) {
    add(
      { id: `scope:${scope}`, kind: 'scope', status: 'settled', volatile: false, pointerIds: ids.map(memoryPointerId) },
      `${ids.length} of the entries apply only to ${scope}`,
    );
  }
  anchors.sort((a, b) => compareText(a.id, b.id));
  return { anchors, pointers: pointersOf(s), statements };
}

function factKind(fact: MustPreserveFact): AnchorKind {
  if (fact.reasons.includes('constraint') || fact.reasons.includes('permission')) return 'constraint';
  if (fact.openItem) return 'open_item';
  return 'decision';
}

const sourcePointerId = (memoryId: string, n: number) => `src:${memoryId}:${n}`;

/** Each scope (`project=p1`) and the inputs that apply only within it. */
function scopesOf(inputs: readonly ConsolidationInput[]): Array<[string, string[]]> {
  const scopes = new Map<string, string[]>();
  for (const input of inputs) {
    for (const [name, value] of Object.entries(input.scopes)) {
      if (value === undefined) continue;
      const scope = `${name}=${value}`;
      scopes.set(scope, [...(scopes.get(scope) ?? []), input.memoryId]);
    }
  }
  return [...scopes.entries()].map(([scope, ids]): [string, string[]] => [scope, ids.sort(compareText)]);
}

function pointersOf(s: AnchorSources): Pointer[] {
  const admitted = new Set(s.admitted.map((i) => i.memoryId));
  const pointers: Pointer[] = [{ id: MANIFEST_POINTER, kind: 'manifest', purpose: 'contract', artifactId: s.manifest.artifactId }];
  for (const input of s.selected) {
    const version = { memoryId: input.memoryId, sequence: input.sequence };
    pointers.push({ id: memoryPointerId(input.memoryId), kind: 'memory_version', purpose: 'evidence', ...version });
    // A withheld entry's refs stay with its raw entry: the record points at the entry, nothing more.
    if (!admitted.has(input.memoryId)) continue;
    input.source.refs.forEach((ref, n) =>
      pointers.push({ id: sourcePointerId(input.memoryId, n), kind: 'source_ref', purpose: 'provenance', ...version, ref }),
    );
  }
  for (const conflict of s.conflicts) {
    pointers.push({ id: `conflict:${conflict.conflictId}`, kind: 'conflict', purpose: 'dispute', conflictId: conflict.conflictId });
  }
  return pointers.sort((a, b) => compareText(a.id, b.id));
}
