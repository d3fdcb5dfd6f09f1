// The versioned selector: which entries of a subject a consolidation may be
// built from. A new rule is a new version; old versions stay so forward
// recovery can rebuild "with the previous selector" (DESIGN section 4.6).
import type { EntryState, SubjectState } from '../subject/state.js';
import { effectiveTrust } from '../subject/trust.js';
import type { Instant } from '../values/instant.js';

export const SELECTOR_VERSIONS = ['selector-v1'] as const;
export type SelectorVersion = (typeof SELECTOR_VERSIONS)[number];
export const CURRENT_SELECTOR: SelectorVersion = 'selector-v1';

export interface SelectionOptions {
  /** Cover entries with sequence <= through (default and maximum: H). */
  readonly through?: number;
  /** Entries whose TTL or valid window ended by now are left out even before the sweeper records it. */
  readonly now: Instant;
  readonly version?: SelectorVersion;
}

export interface Selection {
  readonly selectorVersion: SelectorVersion;
  /** The newCoversThrough of the manifest. */
  readonly through: number;
  /** Selected entries, in sequence order. */
  readonly entries: readonly EntryState[];
}

/**
 * selector-v1: active entries with sequence <= through, from a source that is
 * not tainted (effective trust above untrusted), not expired and still valid
 * at `now`. Open conflicts are never filtered: both sides are inputs.
 */
export function selectEntries(state: SubjectState, options: SelectionOptions): Selection {
  const version = options.version ?? CURRENT_SELECTOR;
  const through = Math.min(options.through ?? state.highWaterMark, state.highWaterMark);
  const entries = [...state.entries.values()]
    .filter((e) => e.status === 'active' && e.sequence <= through && selectable(state, e, options.now))
    .sort((a, b) => a.sequence - b.sequence);
  return { selectorVersion: version, through, entries };
}

function selectable(state: SubjectState, entry: EntryState, now: Instant): boolean {
  if (effectiveTrust(state, entry.source) === 'untrusted') return false;
  if (entry.expiresAt !== undefined && entry.expiresAt <= now) return false;
  if (entry.validTo !== undefined && entry.validTo <= now) return false;
  return true;
}
