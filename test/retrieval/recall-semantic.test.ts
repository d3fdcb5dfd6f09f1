// Recall with a query uses the model ports (issue 16), against a stand-in
// embeddings endpoint on a local port and a real PostgreSQL, in-process:
//   - a memory is found by one of its (sealed) anticipated queries alone;
//   - with vectors that make a memory close to the query, it is found by the
//     semantic signal (the reason names it) where no word is shared;
//   - an embedder that fails at query time leaves the answer lexical, and
//     the answer says so;
//   - the index cache follows the vectors: vectors that arrive at the same
//     revision (a re-index) and another model's vectors are never served
//     from an index built before them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordMemory } from '../../src/commands/record.js';
import { reindexVectors } from '../../src/commands/retrieval/vector-index.js';
import { openReadSide, type ReadSide } from '../../src/queries/read-side.js';
import type { RecallItem } from '../../src/queries/recall/items.js';
import { recall, type RecallAnswer } from '../../src/queries/recall/recall.js';
import { openLedger } from '../../src/runtime/open-ledger.js';
import { ok, openWorld, text, type World } from '../forgetting/support.js';
import { bagOfWords, DIMENSIONS, embeddingEnv, startModelServer, type ModelServer } from '../support/model-server.js';

let model: ModelServer;
let world: World;

/** Texts about dogs, and the question "canine", point one way (dimension 0); every other text elsewhere (its words, dimension 0 cleared). */
const aboutDogs = (t: string) => /\b(dog|puppy|retriever)\b/i.test(t) || t.trim().toLowerCase() === 'canine';
function conceptVector(t: string): number[] {
  if (aboutDogs(t)) return [1, ...new Array<number>(DIMENSIONS - 1).fill(0)];
  const words = bagOfWords(t);
  words[0] = 0;
  return words.some((x) => x > 0) ? words : [0, 1, ...new Array<number>(DIMENSIONS - 2).fill(0)];
}

beforeAll(async () => {
  model = await startModelServer();
  model.embedding = conceptVector;
  world = await openWorld('retrieval_recall_semantic', undefined, Date.now(), embeddingEnv(model, 'concepts-16'));
}, 120_000);
afterAll(async () => {
  await world?.close();
  await model?.close();
});

const said = (key: string, content: string, extra: Record<string, unknown> = {}) => ({
  kind: 'episodic',
  key,
  value: text(content),
  content,
  source: { type: 'user_assertion', refs: [`msg://${key}`] },
  ...extra,
});

async function asked(read: Pick<World['read'], keyof ReadSide>, subject: string, query: string): Promise<RecallAnswer> {
  await world.catchUp({ tenant: 'acme', subject });
  return recall(read, { tenant: 'acme', subject, query });
}
const hitOf = (answer: RecallAnswer, memoryId: string) =>
  answer.items.find((i): i is Extract<RecallItem, { type: 'memory' }> => i.type === 'memory' && i.memoryId === memoryId);
const codes = (item: RecallItem | undefined) => (item?.retrieval?.reasons ?? []).map((r) => r.code);

describe('recall with a query and the model ports', () => {
  it('finds a memory by an anticipated query alone (no word shared with its content)', async () => {
    model.fault = 'none';
    const s = 'sem-anticipated';
    const parking = ok(
      await recordMemory(
        world.ledger,
        { tenant: 'acme', subject: s },
        said('chat.p1', 'Spot 14 on level B2.', {
          anticipatedQueries: ['Where do I leave my bicycle?'],
        }),
      ),
    ).memoryId;
    ok(await recordMemory(world.ledger, { tenant: 'acme', subject: s }, said('chat.p2', 'Lunch was a sandwich.')));
    const answer = await asked(world.read, s, 'bicycle');
    expect(answer.items[0]).toMatchObject({ type: 'memory', memoryId: parking });
    const lexical = answer.items[0]!.retrieval!.reasons.find((r) => r.code === 'lexical_match');
    expect(lexical).toMatchObject({ fields: ['anticipated'] });
  });

  it('ranks a memory close to the query by the semantic signal, naming it', async () => {
    model.fault = 'none';
    const s = 'sem-close';
    const c = { tenant: 'acme', subject: s };
    const rex = ok(await recordMemory(world.ledger, c, said('pets.rex', 'Rex is a golden retriever.'))).memoryId;
    for (let i = 0; i < 4; i++) ok(await recordMemory(world.ledger, c, said(`chat.f${i}`, `Weather notes for week ${i}.`)));
    const answer = await asked(world.read, s, 'canine');
    expect(answer.retrieval).toMatchObject({ semantic: { status: 'ready', model: 'concepts-16', vectors: 5 } });
    expect(answer.retrieval!.signals.lexical).toBe(0);
    expect(answer.items[0]).toMatchObject({ type: 'memory', memoryId: rex });
    expect(codes(answer.items[0])).toContain('semantic_match');
    expect(answer.items[0]!.retrieval!.reasons.find((r) => r.code === 'semantic_match')).toMatchObject({ rank: 1, cosine: 1 });
  });

  it('an embedder failing at query time answers lexically and says so', async () => {
    model.fault = 'none';
    const s = 'sem-failing';
    const c = { tenant: 'acme', subject: s };
    const rex = ok(await recordMemory(world.ledger, c, said('pets.rex', 'Rex is a golden retriever.'))).memoryId;
    const invoice = ok(await recordMemory(world.ledger, c, said('billing.i1', 'The canine grooming invoice is due.'))).memoryId;
    await world.catchUp(c);
    model.fault = 'http_500';
    try {
      const answer = await recall(world.read, { tenant: 'acme', subject: s, query: 'canine' });
      expect(answer.retrieval).toMatchObject({ semantic: { status: 'failed', code: 'http_error' }, signals: { semantic: 0 } });
      expect(answer.items.map((i) => (i.type === 'memory' ? i.memoryId : i.type))).toEqual([invoice]);
      expect(codes(answer.items[0])).not.toContain('semantic_match');
      expect(hitOf(answer, rex)).toBeUndefined();
    } finally {
      model.fault = 'none';
    }
    const healed = await recall(world.read, { tenant: 'acme', subject: s, query: 'canine' });
    expect(codes(hitOf(healed, rex))).toContain('semantic_match');
  });

  it('vectors that arrive after the write reach the next answer at the same revision', async () => {
    const s = 'sem-late';
    const c = { tenant: 'acme', subject: s };
    model.fault = 'http_500';
    const rex = ok(await recordMemory(world.ledger, c, said('pets.rex', 'Rex is a golden retriever.'))).memoryId;
    model.fault = 'none';
    const before = await asked(world.read, s, 'canine');
    expect(before.retrieval).toMatchObject({ semantic: { status: 'ready', vectors: 0 } });
    expect(hitOf(before, rex)).toBeUndefined();
    expect(await reindexVectors(world.ledger, c)).toMatchObject({ embedded: 1 });
    const after = await asked(world.read, s, 'canine');
    expect(after.revision).toBe(before.revision);
    expect(codes(hitOf(after, rex))).toContain('semantic_match');
  });

  it('after a re-index with another model the cached index is not reused', async () => {
    model.fault = 'none';
    const s = 'sem-model';
    const c = { tenant: 'acme', subject: s };
    const rex = ok(await recordMemory(world.ledger, c, said('pets.rex', 'Rex is a golden retriever.'))).memoryId;
    const first = await asked(world.read, s, 'canine');
    expect(codes(hitOf(first, rex))).toContain('semantic_match');

    // Another model's read side over the same cache: the first model's vectors are not its vectors.
    const other = await openLedger({ env: { ...world.env, ...embeddingEnv(model, 'concepts-16-v2') } });
    const otherRead = await openReadSide(other, { tokenizer: true });
    const shared = { ...otherRead, retrievalIndexes: world.read.retrievalIndexes };
    try {
      const before = await asked(shared, s, 'canine');
      expect(before.revision).toBe(first.revision);
      expect(before.retrieval).toMatchObject({
        semantic: { status: 'ready', model: 'concepts-16-v2', vectors: 0 },
        signals: { semantic: 0 },
      });
      expect(hitOf(before, rex)).toBeUndefined();
      expect(await reindexVectors(other, c)).toMatchObject({ embedded: 1 });
      const after = await asked(shared, s, 'canine');
      expect(after.retrieval).toMatchObject({ semantic: { status: 'ready', model: 'concepts-16-v2', vectors: 1 } });
      expect(codes(hitOf(after, rex))).toContain('semantic_match');
    } finally {
      await otherRead.close();
      await other.close();
    }
  });
});
