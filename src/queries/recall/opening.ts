// Opening what passed recall's hard filters (issue 16, speed): a memory
// the subject's corpus opened before, at the same version and under the
// same key, is reused; the others are opened with their keys, looked up in
// one call. A reused memory's key is not looked up before ranking; the keys
// of what recall serves are, after (servedKeysLive): an erasure destroys
// keys before its tombstones reach the projection, and a memory whose key
// is gone is never served from memory. Without a query, the subject's memory
// key epoch unchanged since the opening proves it in one row. The keys either lookup read are
// handed on, within this recall only, to seal its question's shares
// (recall-records.ts): no memory's key is read twice in one recall.
import type { KeyLookup, KeyStore, MemoryKey, SubjectKeys, SubjectRef } from '../../infrastructure/key-store/port.js';
import { memoryKeysOf, openMemoryFieldsWithKeys, type PersonalFields } from '../opened/memory-fields.js';
import type { RecallItem } from './items.js';
import type { OpenedSummary } from './published-summary.js';
import { recordedMemoryIds } from './record.js';
import type { OpenedCorpora, OpenedCorpus, OpenedMemory } from './retrieval/opened-corpus.js';
import type { CurrentVersion, SubjectView } from './subject-view-shape.js';

/** Memories opened between two turns of the event loop. */
const OPEN_CHUNK = 500;

export interface OpenedPassing {
  readonly opened: ReadonlyMap<string, OpenedMemory>;
  /** Passing memories that could not be opened (key gone, fields erased). */
  readonly unreadable: readonly string[];
  /** Memories taken from the corpus without a key lookup in this recall. */
  readonly reused: Pick<ReadonlySet<string>, 'has'>;
  /** The keys this recall looked up (of the memories it opened), never kept beyond it. */
  readonly keys: ReadonlyMap<string, KeyLookup<MemoryKey>>;
}

/** A passing array -> the corpus map found to hold exactly it (neither changes once made). */
const holds = new WeakMap<readonly CurrentVersion[], ReadonlyMap<string, OpenedMemory>>();

export async function openPassing(
  keys: KeyStore,
  ref: SubjectRef,
  passing: readonly CurrentVersion[],
  held: ReadonlyMap<string, OpenedMemory> | undefined,
): Promise<OpenedPassing> {
  // The warm case: what passes is what the corpus holds, at these very version objects: its map as it is, no copy.
  // A reader's passing array is kept while nothing moves (filtered-versions.ts): found warm once, it is warm for good.
  if (
    held &&
    (holds.get(passing) === held || (passing.length === held.size && passing.every((v) => held.get(v.memory_id)?.version === v)))
  ) {
    holds.set(passing, held);
    return { opened: held, unreadable: [], reused: held, keys: new Map() };
  }
  const opened = new Map<string, OpenedMemory>();
  const reused = new Set<string>();
  const toOpen: CurrentVersion[] = [];
  for (const v of passing) {
    const known = held?.get(v.memory_id);
    if (known && v.value !== null && known.version.version === v.version && known.keyId === v.value.keyId) {
      // The version object of this read: trust may have changed since the fields were opened.
      opened.set(v.memory_id, known.version === v ? known : { ...known, version: v });
      reused.add(v.memory_id);
    } else toOpen.push(v);
  }
  const fields = new Map<string, PersonalFields>();
  const lookups = new Map<string, KeyLookup<MemoryKey>>();
  // Before the keys: an epoch read after them could hide a key destroyed in between.
  const epoch = toOpen.length > 0 ? await keys.memoryKeyEpoch(ref) : undefined;
  for (let i = 0; i < toOpen.length; i += OPEN_CHUNK) {
    // A cold subject of thousands opens for seconds: in chunks, letting the process answer other requests (and its pools' timers) between them.
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    const chunk = toOpen.slice(i, i + OPEN_CHUNK);
    const opened = await openMemoryFieldsWithKeys(
      keys,
      ref,
      chunk.map((v) => ({ memoryId: v.memory_id, value: v.value, content: v.content, anticipatedQueries: v.anticipated_queries })),
    );
    for (const [id, f] of opened.fields) fields.set(id, f);
    for (const [id, lookup] of opened.lookups) lookups.set(id, lookup);
  }
  const unreadable: string[] = [];
  for (const v of toOpen) {
    const f = fields.get(v.memory_id)!;
    if (f.status === 'readable') opened.set(v.memory_id, { version: v, fields: f, keyId: v.value!.keyId, ...(epoch ? { epoch } : {}) });
    else unreadable.push(v.memory_id);
  }
  return { opened, unreadable, reused, keys: lookups };
}

/** The memories an item shows the fields of. */
function shownMemories(item: RecallItem): string[] {
  switch (item.type) {
    case 'memory':
      return [item.memoryId];
    case 'conflict':
      return item.sides.flatMap((s) => ('withheld' in s ? [] : [s.memoryId]));
    case 'claim':
    case 'open_item':
      // A summary's text is opened with the artifact's key in every recall: an erasure destroys it with the memories'.
      return [];
  }
}

export interface ServedKeys {
  /** True when every reused memory among the served items still has the key its fields were opened with. */
  readonly live: boolean;
  /** The served memories' keys as this recall read them (opened, or checked here). */
  readonly keys: ReadonlyMap<string, KeyLookup<MemoryKey>>;
  /** The subject's keys, when the check read them with the memories' (in the same round trip). */
  readonly subject?: KeyLookup<SubjectKeys>;
}

/**
 * Checks the keys of the reused memories among the served items; returns them with the keys the opening read.
 * Without `needKeys` (nothing is sealed under them), an unchanged memory key epoch is the proof, in one row:
 * no memory key of the subject was destroyed since these were opened.
 */
export async function servedKeysLive(
  keys: KeyStore,
  ref: SubjectRef,
  items: readonly RecallItem[],
  opened: OpenedPassing,
  needKeys: boolean,
): Promise<ServedKeys> {
  const ids = [...new Set(items.flatMap(shownMemories))].filter((id) => opened.reused.has(id));
  if (!needKeys) {
    if (ids.length === 0) return { live: true, keys: opened.keys };
    const epoch = await keys.memoryKeyEpoch(ref);
    if (epoch !== undefined && ids.every((id) => opened.opened.get(id)!.epoch === epoch)) return { live: true, keys: opened.keys };
  }
  // Keys to seal under, in this one round trip: the subject's (its share of the question) and those of every memory the
  // record names that this recall did not open (the reused ones above, a claim's sources): the sealing read them again
  // in a second one.
  const read = needKeys
    ? await keys.subjectAndMemoryKeys(
        ref,
        [...new Set(items.flatMap(recordedMemoryIds))].filter((id) => !opened.keys.has(id)),
      )
    : { memories: await memoryKeysOf(keys, ref, ids) };
  const lookups = read.memories;
  const live = ids.every((id) => {
    const lookup = lookups.get(id);
    return lookup?.status === 'found' && lookup.key.keyId === opened.opened.get(id)!.keyId;
  });
  return { live, keys: new Map([...opened.keys, ...lookups]), ...('subject' in read ? { subject: read.subject } : {}) };
}

/**
 * Keeps what this recall opened, with what the corpus held of memories
 * still current at the same version (another reader's), and the summary it
 * served (none when it served raw entries), for the next recall; a
 * forgotten subject keeps nothing. Returns the documents memo.
 */
export function keepCorpus(
  corpora: OpenedCorpora,
  ref: { tenant: string; subject: string },
  view: SubjectView,
  held: OpenedCorpus | undefined,
  opened: ReadonlyMap<string, OpenedMemory>,
  byId: ReadonlyMap<string, CurrentVersion>,
  summary: OpenedSummary | undefined,
): OpenedCorpus | undefined {
  if (!view.clock || view.clock.forgotten) {
    corpora.drop(ref);
    return undefined;
  }
  const same = held && held.schema === view.schema && held.revision === view.clock.revision;
  // Nothing opened that the corpus does not hold (the warm case): it stays as it is.
  if (same && held.summary === summary && (opened === held.opened || [...opened].every(([id, memory]) => held.opened.get(id) === memory)))
    return held;
  const kept = new Map(opened);
  for (const [id, memory] of held?.opened ?? []) {
    const current = byId.get(id);
    if (!kept.has(id) && current && current.version === memory.version.version) kept.set(id, { ...memory, version: current });
  }
  const documents =
    held && held.schema === view.schema && held.revision === view.clock.revision ? held.documents : new Map(held?.documents ?? []);
  for (const id of documents.keys()) if (!kept.has(id)) documents.delete(id);
  const corpus: OpenedCorpus = {
    schema: view.schema,
    revision: view.clock.revision,
    versions: view.versions,
    opened: kept,
    documents,
    ...(summary ? { summary } : {}),
    // What was opened changed: entries and items made before may show other fields.
    shown: new Map(),
    standing: new Map(),
  };
  corpora.keep(ref, corpus);
  return corpus;
}
