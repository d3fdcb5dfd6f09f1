// Whether an artifact may still serve as a parent or be read (DESIGN
// section 4.1, seed 000 "沿 derivedFrom 标记所有后代 STALE"): it is STALE when
// any of its inputs is no longer active with the same hashes, or its source
// is now tainted. A manifest lists every input, those carried over from its
// parent included, so checking it covers the parent chain transitively.
import type { Manifest } from '../events/manifest.js';
import type { SubjectState } from '../subject/state.js';
import { effectiveTrust } from '../subject/trust.js';

export type Staleness =
  | { readonly stale: false }
  | { readonly stale: true; readonly memoryId: string; readonly cause: 'not_active' | 'hash_changed' | 'tainted' };

export function artifactStaleness(manifest: Manifest, state: SubjectState): Staleness {
  for (const input of manifest.inputs) {
    const entry = state.entries.get(input.memoryId);
    if (!entry || entry.status !== 'active') return { stale: true, memoryId: input.memoryId, cause: 'not_active' };
    if (entry.valueHash !== input.valueHash || entry.contentHash !== input.contentHash)
      return { stale: true, memoryId: input.memoryId, cause: 'hash_changed' };
    if (effectiveTrust(state, entry.source) === 'untrusted') return { stale: true, memoryId: input.memoryId, cause: 'tainted' };
  }
  return { stale: false };
}

/** The parent may serve only while its sourceEpoch is the current inputEpoch and it is not STALE; otherwise build from raw entries. */
export function parentMayServe(state: SubjectState, parent: Manifest): boolean {
  const alias = state.alias;
  if (!alias || alias.artifactId !== parent.artifactId) return false;
  if (alias.sourceEpoch !== state.inputEpoch || parent.inputEpoch !== state.inputEpoch) return false;
  return !artifactStaleness(parent, state).stale;
}
