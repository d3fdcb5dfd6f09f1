// Recall across a subject and the shared namespaces it asked for (issue 19,
// seed 003: a user's recall may include the team's and the project's
// memories). Each namespace is recalled on its own — its filters, summary
// choice and erasure state are its own, and nothing of one ever lands in
// another — then the items are merged, each naming its namespace, ordered
// (open conflicts first; then by relevance score with a query, by each
// answer's own priority without), and packed to the one budget again.
import type { ComposedRecall, RecallAnswer } from './recall.js';
import { refOf, type RecallItem } from './items.js';
import { emptyFilterCounts } from './hard-filters.js';
import { pack } from './packing.js';

export interface SharedSource {
  readonly namespace: string;
  readonly source: RecallAnswer['source'];
  readonly reason: RecallAnswer['reason'];
  readonly revision: number | null;
}

export type MergedRecallAnswer = RecallAnswer & { readonly shared: readonly SharedSource[] };

/** A merged answer before it is recorded. */
export type MergedComposedRecall = ComposedRecall & { readonly shared: readonly SharedSource[] };

/** `answers[0]` is the subject's own; the rest are the shared namespaces', in the order asked. */
export function mergeRecallAnswers(answers: readonly ComposedRecall[], budget: number | undefined): MergedComposedRecall {
  const home = answers[0]!;
  const withQuery = home.retrieval !== null;
  const tagged = answers.flatMap((a, source) => a.items.map((item) => ({ item: { ...item, namespace: a.subject }, source })));
  const ordered = tagged.sort((a, b) => order(a.item, b.item, withQuery) || a.source - b.source).map((t) => t.item);
  const packed = pack(
    ordered.map((item, i) => ({
      item: { ...item, priority: i + 1 },
      tokens: item.tokens,
      mandatory: item.type === 'conflict',
    })),
    budget,
  );
  const excluded = emptyFilterCounts();
  for (const a of answers) for (const [reason, n] of Object.entries(a.excluded)) excluded[reason as keyof typeof excluded] += n;
  return {
    ...home,
    budget: { limit: budget ?? null, used: packed.used, overBudget: packed.overBudget },
    items: packed.included.map((p) => p.item),
    omitted: [
      ...answers.flatMap((a) => a.omitted),
      ...packed.omitted.map(({ item }) => ({ type: item.type, ref: refOf(item), tokens: item.tokens, priority: item.priority })),
    ],
    excluded,
    shared: answers.slice(1).map((a) => ({ namespace: a.subject, source: a.source, reason: a.reason, revision: a.revision })),
  };
}

function order(a: RecallItem, b: RecallItem, withQuery: boolean): number {
  const conflict = Number(b.type === 'conflict') - Number(a.type === 'conflict');
  if (conflict !== 0) return conflict;
  if (withQuery) return (b.retrieval?.score ?? 0) - (a.retrieval?.score ?? 0);
  return a.priority - b.priority;
}
