// The published summary's claims and open items that recall can show whole
// (seed 001 E): every source passed the hard filters and was read, none is
// a side of an open conflict (conflicts are shown as conflicts). Sources of
// anything left out come back as raw entries.
import type { Claim, OpenItem } from '../../domain/consolidation/output.js';
import { claimItem, OPEN_ITEM_WEIGHT, openItemItem, rankOf, type ItemMemo, type Rank, type RecallItem } from './items.js';
import { renderedOnce, type OpenedSummary } from './published-summary.js';
import type { CurrentVersion } from './subject-view-shape.js';

export type SummaryEntry =
  | { readonly type: 'claim'; readonly index: number; readonly claim: Claim; readonly sources: readonly CurrentVersion[] }
  | { readonly type: 'open_item'; readonly index: number; readonly openItem: OpenItem; readonly sources: readonly CurrentVersion[] };

export interface ShownSummaryEntry {
  readonly entry: SummaryEntry;
  /** Made on first use: a query shows only its hits. */
  readonly item: RecallItem;
  readonly rank: Rank;
}

function shown(entry: SummaryEntry, rank: Rank, make: () => RecallItem): ShownSummaryEntry {
  let item: RecallItem | undefined;
  return {
    entry,
    rank,
    get item() {
      return (item ??= make());
    },
  };
}

/** The entries' texts are rendered once per opened summary (published-summary.ts); their sources and provenance are this read's. */
export function summaryEntries(
  summary: OpenedSummary,
  readable: ReadonlyMap<string, { version: CurrentVersion }>,
  conflictMembers: ReadonlySet<string>,
  memo: ItemMemo,
): ShownSummaryEntry[] {
  const sourcesOf = (derivedFrom: readonly string[]) => {
    if (derivedFrom.length === 0) return undefined;
    const ids = [...new Set(derivedFrom)];
    if (ids.some((id) => !readable.has(id) || conflictMembers.has(id))) return undefined;
    return ids.map((id) => readable.get(id)!.version);
  };
  const { artifactId, output } = summary;
  const rendering = renderedOnce(summary);
  const out: ShownSummaryEntry[] = [];
  output.claims.forEach((claim, index) => {
    if (claim.conflictIds && claim.conflictIds.length > 0) return;
    const sources = sourcesOf(claim.derivedFrom);
    if (!sources) return;
    out.push(
      shown({ type: 'claim', index, claim, sources }, rankOf(sources), () => claimItem(artifactId, index, claim, sources, memo, rendering)),
    );
  });
  output.openItems.forEach((openItem, index) => {
    const sources = sourcesOf(openItem.derivedFrom);
    if (!sources) return;
    out.push(
      shown({ type: 'open_item', index, openItem, sources }, rankOf(sources, OPEN_ITEM_WEIGHT), () =>
        openItemItem(artifactId, index, openItem, sources, memo, rendering),
      ),
    );
  });
  return out;
}
