// The retrieval index cache's build in turns (issue 20): concurrent recalls
// of a cold subject wait for one build of the same index, and a build that
// an erasure's drop overtook answers its own recall but is not kept.
import { describe, expect, it } from 'vitest';
import { buildRetrievalIndex, type RetrievalIndex } from '../../src/domain/retrieval/index.js';
import { RetrievalIndexCache } from '../../src/queries/recall/retrieval/index-cache.js';
import { doc } from '../domain/retrieval/documents.js';

const ref = { tenant: 'acme', subject: 'turns' };
const documents = Array.from({ length: 40 }, (_, i) => doc(`m-${i}`, { content: `parcel number ${i} left at the door` }));
const turn = () => new Promise((resolve) => setImmediate(resolve));

/** A build that takes a few turns of the event loop, counted. */
function slowBuild(): { build: () => Promise<RetrievalIndex>; builds: () => number } {
  let builds = 0;
  return {
    build: async () => {
      builds += 1;
      for (let i = 0; i < 5; i++) await turn();
      return buildRetrievalIndex(documents);
    },
    builds: () => builds,
  };
}

describe('obtainInTurns', () => {
  it('builds once for concurrent recalls of the same index, then serves it from the cache', async () => {
    const cache = new RetrievalIndexCache();
    const { build, builds } = slowBuild();
    const indexes = await Promise.all(Array.from({ length: 8 }, () => cache.obtainInTurns(ref, 3, 'f', build)));
    expect(builds()).toBe(1);
    for (const index of indexes) expect(index).toBe(indexes[0]);
    expect(await cache.obtainInTurns(ref, 3, 'f', build)).toBe(indexes[0]);
    expect(builds()).toBe(1);
    expect(cache.size).toEqual({ indexes: 1, documents: 40 });
  });

  it('keeps no index whose build an erasure overtook', async () => {
    const cache = new RetrievalIndexCache();
    const { build } = slowBuild();
    const building = cache.obtainInTurns(ref, 3, 'f', build);
    await turn();
    cache.dropSubject(ref);
    expect((await building).size).toBe(40);
    expect(cache.size).toEqual({ indexes: 0, documents: 0 });
    expect([...cache.indexes()]).toEqual([]);
  });
});
