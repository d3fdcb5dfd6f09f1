// Seed 003's retrieval metrics over what one condition served, case by case.
// Relevance metrics (recall, precision, required recall, conflicts, citation,
// tokens) judge the first K items; the safety metrics (stale, unauthorized)
// judge everything served, since an agent reads all of it. A rate whose
// denominator is empty is null (nothing to judge), never 0 or 1.

/** One memory an item carries: the case's own id for it (null: not recorded by this case), and whether its provenance cites the case's source refs. */
export interface ServedMemory {
  readonly ref: string | null;
  readonly cited: boolean;
}

export interface ServedItem {
  /** An open conflict: its sides, served together. */
  readonly conflict: boolean;
  readonly memories: readonly ServedMemory[];
  readonly tokens: number;
}

/** What a case expects, and what a condition served for it, in rank order. */
export interface CaseObservation {
  readonly caseId: string;
  readonly active: readonly string[];
  readonly required: readonly string[];
  readonly invalidated: readonly string[];
  readonly conflicts: ReadonlyArray<readonly string[]>;
  /** Memories recorded in a forbidden namespace. */
  readonly lures: readonly string[];
  readonly served: readonly ServedItem[];
}

export interface CaseScore {
  readonly caseId: string;
  readonly recallAtK: number | null;
  readonly precisionAtK: number | null;
  readonly requiredRecalled: boolean | null;
  readonly conflictsSurfaced: boolean | null;
  /** The invalidated memories served (anywhere in the answer). */
  readonly stale: readonly string[];
  /** Lures, and memories this case never recorded, served (null: such a memory). */
  readonly unauthorized: ReadonlyArray<string | null>;
  readonly usefulServed: number;
  readonly usefulCited: number;
  readonly tokensAtK: number;
}

const refsOf = (items: readonly ServedItem[]) => items.flatMap((i) => i.memories.map((m) => m.ref));

export function scoreCase(o: CaseObservation, k: number): CaseScore {
  const top = o.served.slice(0, k);
  const topRefs = refsOf(top);
  const topSet = new Set(topRefs);
  const allRefs = refsOf(o.served);
  const active = new Set(o.active);
  const useful = top.flatMap((i) => i.memories).filter((m) => m.ref !== null && active.has(m.ref));
  const distinctUseful = new Set(useful.map((m) => m.ref));
  const lures = new Set(o.lures);
  return {
    caseId: o.caseId,
    recallAtK: o.active.length === 0 ? null : o.active.filter((r) => topSet.has(r)).length / o.active.length,
    precisionAtK: topRefs.length === 0 ? null : topRefs.filter((r) => r !== null && active.has(r)).length / topRefs.length,
    requiredRecalled: o.required.length === 0 ? null : o.required.every((r) => topSet.has(r)),
    conflictsSurfaced:
      o.conflicts.length === 0
        ? null
        : o.conflicts.every((set) => top.some((i) => i.conflict && set.every((r) => i.memories.some((m) => m.ref === r)))),
    stale: [...new Set(allRefs.filter((r): r is string => r !== null && o.invalidated.includes(r)))],
    unauthorized: [...new Set(allRefs.filter((r) => r === null || lures.has(r)))],
    usefulServed: distinctUseful.size,
    usefulCited: new Set(useful.filter((m) => m.cited).map((m) => m.ref)).size,
    tokensAtK: top.reduce((sum, i) => sum + i.tokens, 0),
  };
}

export interface ConditionMetrics {
  readonly cases: number;
  readonly memoryRecallAtK: number | null;
  readonly memoryPrecisionAtK: number | null;
  readonly requiredMemoryRecall: number | null;
  /** Cases that served an invalidated memory / cases with one. */
  readonly staleMemoryRate: number | null;
  readonly conflictSurfacingRate: number | null;
  /** Cases that served a lure or a memory from nowhere / cases. */
  readonly unauthorizedRetrievalRate: number | null;
  /** Useful memories served citing their source / useful memories served. */
  readonly sourceCitationAccuracy: number | null;
  /** Tokens of the first K items / useful memories among them. */
  readonly tokensPerUsefulMemory: number | null;
  readonly staleServed: number;
  readonly unauthorizedServed: number;
}

const mean = (xs: ReadonlyArray<number | null>): number | null => {
  const given = xs.filter((x): x is number => x !== null);
  return given.length === 0 ? null : given.reduce((a, b) => a + b, 0) / given.length;
};
const share = (flags: ReadonlyArray<boolean | null>): number | null => mean(flags.map((f) => (f === null ? null : f ? 1 : 0)));
const ratio = (num: number, den: number): number | null => (den === 0 ? null : num / den);
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

export function aggregate(scores: readonly CaseScore[], observations: readonly CaseObservation[]): ConditionMetrics {
  const withInvalidated = new Set(observations.filter((o) => o.invalidated.length > 0).map((o) => o.caseId));
  const useful = sum(scores.map((s) => s.usefulServed));
  return {
    cases: scores.length,
    memoryRecallAtK: mean(scores.map((s) => s.recallAtK)),
    memoryPrecisionAtK: mean(scores.map((s) => s.precisionAtK)),
    requiredMemoryRecall: share(scores.map((s) => s.requiredRecalled)),
    staleMemoryRate: share(scores.map((s) => (withInvalidated.has(s.caseId) ? s.stale.length > 0 : null))),
    conflictSurfacingRate: share(scores.map((s) => s.conflictsSurfaced)),
    unauthorizedRetrievalRate: share(scores.map((s) => s.unauthorized.length > 0)),
    sourceCitationAccuracy: ratio(sum(scores.map((s) => s.usefulCited)), useful),
    tokensPerUsefulMemory: ratio(sum(scores.map((s) => s.tokensAtK)), useful),
    staleServed: sum(scores.map((s) => s.stale.length)),
    unauthorizedServed: sum(scores.map((s) => s.unauthorized.length)),
  };
}

/** A blocking regression: one stale or unauthorized memory served is enough, whatever the averages. */
export const isBlocking = (m: ConditionMetrics): boolean => m.staleServed > 0 || m.unauthorizedServed > 0;
