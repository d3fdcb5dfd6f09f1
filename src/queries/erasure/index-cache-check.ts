// The erasure check of recall's in-memory retrieval indexes and the opened
// corpora they are built from (issue 16): the erased subject's indexes and
// corpus from before the erasure's tombstones are dropped (no recall could
// be served from them again, but they hold the erased text), then every
// index and corpus still cached (with the summary a corpus holds opened)
// is searched for the erased memory ids, content and hashes (the items a
// corpus keeps in standing order included). Runs in the
// process that holds the cache (the service, or the CLI's own read side,
// whose cache starts empty).
import { findNeedles } from '../../reads/erasure/needles.js';
import { passedOrFailed, type ErasureCheck } from '../../reads/erasure/verification.js';
import { ProjectionNotBuilt } from '../../projections/index.js';
import type { ReadSide } from '../read-side.js';
import { readSubjectView } from '../recall/subject-view.js';

export const INDEX_CACHE_PATH = 'recall:retrieval_index_cache';

async function revisionNow(read: ReadSide, ref: { tenant: string; subject: string }): Promise<number | undefined> {
  try {
    return (await readSubjectView(read.projections, ref.tenant, ref.subject)).clock?.revision;
  } catch (error) {
    if (error instanceof ProjectionNotBuilt) return undefined;
    throw error;
  }
}

export function retrievalIndexCheck(read: ReadSide): ErasureCheck {
  return {
    path: INDEX_CACHE_PATH,
    async run(target) {
      const cache = read.retrievalIndexes;
      if (!cache) return { status: 'skipped', searched: 0, findings: 0, note: 'this read side keeps no retrieval indexes' };
      cache.dropSubject(target.ref, await revisionNow(read, target.ref));
      const erased = new Set(target.memoryIds);
      let searched = 0;
      let findings = 0;
      for (const { index } of cache.indexes()) {
        searched += 1;
        for (const { document } of index.documents.values()) {
          if (erased.has(document.id)) findings += 1;
          findings += findNeedles(JSON.stringify(document), target.needles);
        }
      }
      // What the indexes are built from: the opened memories and their documents.
      for (const { corpus } of cache.corpora.corpora()) {
        searched += 1;
        for (const [id, memory] of corpus.opened) {
          if (erased.has(id)) findings += 1;
          findings += findNeedles(JSON.stringify(memory.fields), target.needles);
        }
        for (const [id, { document }] of corpus.documents) {
          if (erased.has(id)) findings += 1;
          findings += findNeedles(JSON.stringify(document), target.needles);
        }
        // What it keeps of what readers were shown (summary entries, items in standing order): texts, values and provenance.
        for (const items of [...corpus.shown.values(), ...corpus.standing.values()]) {
          const text = JSON.stringify(items);
          for (const id of erased) if (text.includes(JSON.stringify(id))) findings += 1;
          findings += findNeedles(text, target.needles);
        }
        // The opened summary it served and its entries' texts (published-summary.ts).
        if (corpus.summary) {
          const { output, rendered, documents } = corpus.summary;
          for (const entry of [...output.claims, ...output.openItems]) findings += entry.derivedFrom.filter((id) => erased.has(id)).length;
          findings += findNeedles(JSON.stringify(output), target.needles);
          for (const entry of rendered.values()) findings += findNeedles(entry.text, target.needles);
          for (const { document } of documents.values()) findings += findNeedles(JSON.stringify(document), target.needles);
        }
      }
      return passedOrFailed(searched, findings);
    },
  };
}
