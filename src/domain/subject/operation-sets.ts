// Which write operations each kind of memory takes (seed 004 8.3, issue 17
// item 6). Episodic records are append-only: a write to the same key adds
// one more (ADD, the decision NEW) or, when it says the same, is skipped
// (SKIP, the decision DUPLICATE); it never supersedes an episode and never
// conflicts with one, and an explicit supersede of an episode is refused.
// Profiles, semantic facts and the rules (procedural, constraint, permission)
// take UPDATE (SUPERSEDES) and DELETE (retract, forget). Every kind may be
// retracted or forgotten: erasure is the subject's right.
import type { MemoryKind } from '../entry/vocabulary.js';

export const APPEND_ONLY_KINDS: ReadonlySet<MemoryKind> = new Set<MemoryKind>(['episodic']);

export const isAppendOnly = (kind: MemoryKind): boolean => APPEND_ONLY_KINDS.has(kind);
