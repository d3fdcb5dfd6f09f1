// What each condition serves for a played case, as recall items, and those
// items as the metrics read them (the case's memory ids, citations, tokens).
import type { EvalCase } from '../domain/evaluation/case.js';
import type { Serving } from '../domain/evaluation/conditions.js';
import type { ServedItem, ServedMemory } from '../domain/evaluation/metrics.js';
import type { MemoryProvenance, RecallItem } from '../queries/recall/items.js';
import { recall, type RecallReadSide } from '../queries/recall/recall.js';
import type { PlayedCase } from './play-history.js';

export interface RetrievalTask {
  readonly played: PlayedCase;
  readonly query: string;
  readonly k: number;
}

/** How conditions C, D and E retrieve. The default is production recall; a test passes another to prove the harness catches a leak. */
export type Retrieval = (read: RecallReadSide, task: RetrievalTask) => Promise<readonly RecallItem[]>;

export const productionRetrieval: Retrieval = async (read, { played, query, k }) =>
  (await recall(read, { ...played.home, query, topK: k })).items;

/** B: exactly what the case expects, taken from the subject's whole active memory (so with real text, tokens and provenance). */
async function oracle(read: RecallReadSide, c: EvalCase, played: PlayedCase): Promise<readonly RecallItem[]> {
  const all = (await recall(read, played.home)).items;
  const wanted = new Set(c.expected_active_memory.map((id) => played.memoryIds.get(id)));
  // In the case's order; a conflict's other side does not move its item up.
  const rank = (item: RecallItem) =>
    Math.min(
      ...memoriesOf(item)
        .map((p) => c.expected_active_memory.indexOf(played.caseIds.get(p.memoryId) ?? ''))
        .filter((i) => i >= 0),
    );
  return all.filter((item) => memoriesOf(item).some((p) => wanted.has(p.memoryId))).sort((a, b) => rank(a) - rank(b));
}

export function serve(
  serving: Serving,
  read: RecallReadSide,
  c: EvalCase,
  played: PlayedCase,
  k: number,
  retrieval: Retrieval,
): Promise<readonly RecallItem[]> {
  switch (serving) {
    case 'none':
      return Promise.resolve([]);
    case 'oracle':
      return oracle(read, c, played);
    case 'production':
      return retrieval(read, { played, query: c.current_task, k });
    default: {
      const never: never = serving;
      throw new Error(`unknown serving ${String(never)}`);
    }
  }
}

/** The memories an item carries, with their provenance (a withheld conflict side has none: it carries nothing). */
function memoriesOf(item: RecallItem): readonly MemoryProvenance[] {
  switch (item.type) {
    case 'memory':
      return [item.provenance];
    case 'conflict':
      return item.sides.flatMap((s) => ('provenance' in s ? [s.provenance] : []));
    case 'claim':
    case 'open_item':
      return item.provenance.derivedFrom;
    default: {
      const never: never = item;
      throw new Error(`unknown item ${JSON.stringify(never)}`);
    }
  }
}

export function servedItems(items: readonly RecallItem[], played: PlayedCase): ServedItem[] {
  return items.map((item) => ({
    conflict: item.type === 'conflict',
    tokens: item.tokens,
    memories: memoriesOf(item).map((p): ServedMemory => {
      const ref = played.caseIds.get(p.memoryId) ?? null;
      const expected = ref === null ? [] : (played.sourceRefs.get(ref) ?? []);
      return { ref, cited: ref !== null && expected.every((r) => p.source.refs.includes(r)) };
    }),
  }));
}
