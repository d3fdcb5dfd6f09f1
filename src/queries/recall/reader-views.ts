// What recall showed a reader of an opened corpus (retrieval/opened-corpus.ts
// `shown`, `standing`), kept by what decides it besides the corpus, so that a
// warm recall of an unchanged subject takes it instead of making it again.
import type { FilterReason } from './hard-filters.js';
import type { RecallRequest } from './request.js';
import { READERS_KEPT } from './retrieval/opened-corpus.js';

/**
 * What a reader is shown of a corpus depends on besides the corpus (its
 * revision, what it opened, its summary): the reader's filters, what they
 * left out (which moves with the clock: validity and expiry), the open
 * conflicts (their read model may move at the same revision) and the source.
 */
export function readerKey(
  request: RecallRequest,
  choice: { readonly source: string; readonly reason: string },
  artifactId: string | undefined,
  reasons: ReadonlyMap<string, FilterReason>,
  conflicts: ReadonlyArray<{ readonly conflictId: string; readonly members: readonly string[] }>,
): string {
  return JSON.stringify([
    request.scopes,
    request.maxSensitivity,
    request.purpose ?? null,
    request.includeDemoted === true,
    choice.source,
    choice.reason,
    artifactId ?? null,
    [...reasons],
    conflicts.map((c) => [c.conflictId, c.members]),
  ]);
}

/** What `kept` holds under `key`, made (and kept, the oldest of READERS_KEPT let go) when it holds none; made afresh without a corpus. */
export function keptFor<T>(kept: Map<string, T> | undefined, key: string | undefined, make: () => T): T {
  const known = key === undefined ? undefined : kept?.get(key);
  if (known !== undefined) return known;
  const made = make();
  if (kept && key !== undefined) {
    if (kept.size >= READERS_KEPT) kept.delete(kept.keys().next().value!);
    kept.set(key, made);
  }
  return made;
}
