// Recall's hard filters over a subject's versions, judged once per reader
// and kept while their outcome cannot change (issue 20): a warm recall reads
// the very versions array its corpus holds, so what passes for a reader with
// the same filters is what passed last time, unless the clock crossed an
// instant where a version becomes valid, stops being valid or expires.
// Every judgement reads only the version, the reader's filters (with the
// subject's taint and demotions) and `now`, so outside those instants it is
// the same; at one of them it is made again. Held weakly with the versions
// array: it goes with the corpus that holds it.
import { emptyFilterCounts, filterReason, type FilterReason, type HardFilters } from './hard-filters.js';
import { keptFor } from './reader-views.js';
import type { CurrentVersion } from './subject-view-shape.js';

export interface FilteredVersions {
  /** The versions that pass, in the versions' order. */
  readonly passing: readonly CurrentVersion[];
  /** Memory id -> the first filter that left it out. */
  readonly reasons: ReadonlyMap<string, FilterReason>;
  readonly excluded: Readonly<Record<FilterReason, number>>;
}

interface Judged extends FilteredVersions {
  /** The outcome holds for `now` in [from, until) (epoch milliseconds). */
  readonly from: number;
  readonly until: number;
}

const judgedOf = new WeakMap<readonly CurrentVersion[], Map<string, Judged>>();

/** What besides the versions and the clock the judgement reads. */
const readerOf = (filters: HardFilters) =>
  JSON.stringify([
    filters.scopes,
    filters.maxSensitivity,
    filters.purpose ?? null,
    filters.taint.refPatterns,
    filters.taint.sourceTypes,
    [...filters.demoted].sort(),
  ]);

export function filterVersions(versions: readonly CurrentVersion[], filters: HardFilters): FilteredVersions {
  let kept = judgedOf.get(versions);
  if (!kept) judgedOf.set(versions, (kept = new Map<string, Judged>()));
  const reader = readerOf(filters);
  const known = kept.get(reader);
  if (known && known.from <= filters.now && filters.now < known.until) return known;
  kept.delete(reader); // judged at another time: made again, kept as the newest
  return keptFor(kept, reader, () => judge(versions, filters));
}

function judge(versions: readonly CurrentVersion[], filters: HardFilters): Judged {
  const reasons = new Map<string, FilterReason>();
  const excluded = emptyFilterCounts();
  const passing: CurrentVersion[] = [];
  let from = -Infinity;
  let until = Infinity;
  // Each check is `instant <= now` (valid from, valid to, expires at): its answer moves only at that instant.
  const bound = (at: Date | null) => {
    if (at === null) return;
    const t = at.getTime();
    if (t <= filters.now) from = Math.max(from, t);
    else until = Math.min(until, t);
  };
  for (const v of versions) {
    bound(v.valid_from);
    bound(v.valid_to);
    bound(v.expires_at);
    const reason = filterReason(v, filters);
    if (reason) {
      reasons.set(v.memory_id, reason);
      excluded[reason] += 1;
    } else passing.push(v);
  }
  return { passing, reasons, excluded, from, until };
}
