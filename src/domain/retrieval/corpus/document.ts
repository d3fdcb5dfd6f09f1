// What retrieval knows of one memory: the decrypted text recall already
// opens (content, rendered value, anticipated queries), the key, and the
// metadata the rerank weighs. The caller keeps the provenance: a hit names
// document ids, which the caller maps back to its items.
import type { TrustLevel } from '../../entry/source.js';
import type { MemoryKind, Polarity, Sensitivity } from '../../entry/vocabulary.js';

export interface RetrievalDocument {
  /** Unique in the index: a memory id, or the caller's own ref for a summary claim or open item. */
  readonly id: string;
  readonly kind: MemoryKind;
  readonly key: string;
  /** The entry's scopes rendered canonically ('' or absent: unscoped); with the key it names the slot. */
  readonly scope?: string;
  readonly polarity?: Polarity;
  readonly content?: string;
  /** The value as text (renderValue). */
  readonly value?: string;
  /** Write-time query expansion: questions under which this memory should be found. */
  readonly anticipatedQueries?: readonly string[];
  /** The source's current trust (after overrides). */
  readonly trust: TrustLevel;
  readonly confidence: number | null;
  readonly sensitivity: Sensitivity;
  /** ISO instant the memory was recorded; freshness counts from here, or from confirmedAt. */
  readonly recordedAt: string;
  /** ISO instant the statement was last corroborated, if later. */
  readonly confirmedAt?: string;
  /** Feedback on it (issue 18): used or confirmed count as corroboration, ignored against it. */
  readonly feedback?: { readonly reinforced: number; readonly ignored: number };
  /** Explicit priority from 0 (none) to 1 (pinned by the user). */
  readonly priority?: number;
  /** Open conflicts this memory is a side of: every side surfaces with it. */
  readonly conflictIds?: readonly string[];
  /** Labels carried through to the hit untouched (e.g. the write gate's flags). */
  readonly labels?: readonly string[];
  /** An embedding of the memory's text (all of one index have the same length). */
  readonly vector?: readonly number[];
}
