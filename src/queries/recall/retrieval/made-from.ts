// What a recall's retrieval documents were made from, kept with the
// corpus's documents (issue 20): the next recall of the same corpus that
// reads the very same memories (the opened corpus hands back the same
// objects while the revision stands), with the same conflicts, vectors and
// summary entries, takes the documents and fingerprint made before instead
// of walking every memory again to describe and hash it. Anything else —
// a memory read again (its trust, usage or version moved), one more or one
// fewer (another reader's filters), a conflict, a vector, another model or
// summary — makes them again.
import type { ReadableMemory } from '../readable.js';
import type { CurrentVersion } from '../subject-view-shape.js';
import type { ShownSummaryEntry } from '../summary-items.js';

/** Each summary entry, as the document made of it depends on it. */
interface SummaryEntryInputs {
  readonly type: ShownSummaryEntry['entry']['type'];
  readonly index: number;
  readonly sources: readonly CurrentVersion[];
}

export interface MadeFrom {
  /** The embedding model whose vectors the documents carry; undefined: lexical. */
  readonly model: string | undefined;
  /** The map the memories were read from (a warm recall hands the corpus's own again). */
  readonly readable: ReadonlyMap<string, ReadableMemory>;
  /** The conflicts they were made with (a copy: each recall hands a map of its own). */
  readonly conflictsOf: ReadonlyMap<string, readonly string[]>;
  /** In the order the documents were made. */
  readonly memories: readonly ReadableMemory[];
  /** Each memory's vector length; -1: none. */
  readonly vectorLengths: readonly number[];
  readonly summary:
    | {
        readonly artifactId: string;
        readonly documents: object | undefined;
        /** The entries array as handed over (a warm recall hands the one kept for its reader again). */
        readonly shown: readonly ShownSummaryEntry[];
        readonly entries: readonly SummaryEntryInputs[];
      }
    | undefined;
}

export interface MadeFromInputs {
  readonly readable: ReadonlyMap<string, ReadableMemory>;
  readonly conflictsOf: ReadonlyMap<string, readonly string[]>;
  readonly summary:
    { readonly artifactId: string; readonly entries: readonly ShownSummaryEntry[]; readonly documents?: object } | undefined;
  readonly semantic: { readonly model: string; readonly vectors: ReadonlyMap<string, readonly number[]> } | undefined;
}

const sameIds = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => {
  if (a === b) return true;
  const [x, y] = [a ?? [], b ?? []];
  return x.length === y.length && x.every((id, i) => id === y[i]);
};

const sameConflicts = (a: ReadonlyMap<string, readonly string[]>, b: ReadonlyMap<string, readonly string[]>) =>
  a === b || (a.size === b.size && [...a].every(([id, conflictIds]) => sameIds(conflictIds, b.get(id))));

const sameSources = (a: readonly CurrentVersion[], b: readonly CurrentVersion[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** True when `inputs` are what `made` describes: the documents made of them then are the ones to make now. */
export function sameInputs(made: MadeFrom, inputs: MadeFromInputs): boolean {
  const { readable, conflictsOf, summary, semantic } = inputs;
  if (made.model !== semantic?.model || readable.size !== made.memories.length) return false;
  // The very map (its entries never change) with the same conflicts and no vectors: the same memories, without walking them.
  const unchanged = readable === made.readable && semantic === undefined && sameConflicts(conflictsOf, made.conflictsOf);
  let i = 0;
  if (!unchanged)
    for (const r of readable.values()) {
      if (r !== made.memories[i]) return false;
      const id = r.version.memory_id;
      if (!sameIds(conflictsOf.get(id), made.conflictsOf.get(id))) return false;
      if ((semantic?.vectors.get(id)?.length ?? -1) !== made.vectorLengths[i]) return false;
      i++;
    }
  if (summary === undefined || made.summary === undefined) return summary === made.summary;
  const entries = made.summary.entries;
  if (summary.artifactId !== made.summary.artifactId || summary.documents !== made.summary.documents) return false;
  if (summary.entries === made.summary.shown) return true; // entries never change once made
  if (summary.entries.length !== entries.length) return false;
  return summary.entries.every(({ entry }, j) => {
    const e = entries[j]!;
    return entry.type === e.type && entry.index === e.index && sameSources(entry.sources, e.sources);
  });
}

/** The record of `inputs`, for the next recall to compare with. */
export function madeFrom(inputs: MadeFromInputs): MadeFrom {
  const { readable, conflictsOf, summary, semantic } = inputs;
  const memories = [...readable.values()];
  return {
    model: semantic?.model,
    readable,
    conflictsOf: new Map(conflictsOf),
    memories,
    vectorLengths: memories.map((r) => semantic?.vectors.get(r.version.memory_id)?.length ?? -1),
    summary: summary && {
      artifactId: summary.artifactId,
      documents: summary.documents,
      shown: summary.entries,
      entries: summary.entries.map(({ entry }) => ({ type: entry.type, index: entry.index, sources: entry.sources })),
    },
  };
}
