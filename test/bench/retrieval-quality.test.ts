// The retrieval-quality benchmark's own correctness: the metrics on hand-made
// rankings, the committed data set is what its generator makes and has the
// promised shape, and a small slice of the real run scores as recomputed
// here by other means.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate, loadConversation } from '../../bench/retrieval-quality.js';
import { conversationJson, DATA_FILE, generateConversation } from '../../bench/retrieval-quality/generate.js';
import { meanRecallAt, meanReciprocalRank, recallAt } from '../../bench/retrieval-quality/metrics.js';
import { memledgerSystem, plainBm25System } from '../../bench/retrieval-quality/systems.js';

describe('retrieval-quality metrics', () => {
  const ranking = [['a'], ['b', 'c'], ['d']];

  it('recall@k counts the gold turns among the first k hits, a hit standing for all its turns', () => {
    expect(recallAt(1, ranking, ['c', 'x'])).toBe(0);
    expect(recallAt(2, ranking, ['c', 'x'])).toBe(0.5);
    expect(recallAt(3, ranking, ['d', 'a'])).toBe(1);
    expect(recallAt(10, [], ['a'])).toBe(0);
    expect(() => recallAt(5, ranking, [])).toThrow();
  });

  it('averages over questions; MRR takes the first hit holding a gold turn', () => {
    const questions = [
      { ranking, gold: ['a'] },
      { ranking, gold: ['c', 'z'] },
      { ranking, gold: ['z'] },
    ];
    expect(meanRecallAt(2, questions)).toBeCloseTo((1 + 0.5 + 0) / 3, 12);
    expect(meanReciprocalRank(questions)).toBeCloseTo((1 + 1 / 2 + 0) / 3, 12);
  });
});

describe('the retrieval-quality data set', () => {
  const conversation = loadConversation();

  it('is what the generator makes', () => {
    expect(readFileSync(DATA_FILE, 'utf8')).toBe(conversationJson(generateConversation()));
  });

  it('has at least 500 turns and 100 questions in English and Chinese, each answered by turns that exist', () => {
    const { turns, questions } = conversation;
    expect(turns.length).toBeGreaterThanOrEqual(500);
    expect(questions.length).toBeGreaterThanOrEqual(100);
    expect(new Set(turns.map((t) => t.id)).size).toBe(turns.length);
    for (const lang of ['en', 'zh'] as const) expect(questions.filter((q) => q.lang === lang).length).toBeGreaterThanOrEqual(40);
    const byId = new Map(turns.map((t) => [t.id, t]));
    for (const q of questions) {
      expect(q.gold.length).toBeGreaterThan(0);
      for (const id of q.gold) {
        expect(byId.get(id)?.lang).toBe(q.lang);
        expect(byId.get(id)!.text).not.toBe(q.text);
      }
    }
    expect(turns.every((t, i) => i === 0 || t.at > turns[i - 1]!.at)).toBe(true);
  });
});

describe('a slice of the benchmark run', () => {
  const conversation = loadConversation();
  const slice = [
    ...conversation.questions.filter((q) => q.lang === 'en').slice(0, 6),
    ...conversation.questions.filter((q) => q.lang === 'zh').slice(0, 6),
  ];

  it('scores each system as a plain count of gold turns in the top 10 says', () => {
    for (const system of [memledgerSystem(), plainBm25System]) {
      const scored = evaluate(system, conversation, slice);
      let found = 0;
      for (const q of slice) {
        const top = scored.get(q.id)!.ranking.slice(0, 10);
        expect(top.length).toBeLessThanOrEqual(10);
        const ids = new Set(top.flat());
        found += q.gold.filter((g) => ids.has(g)).length / q.gold.length;
      }
      expect(meanRecallAt(10, [...scored.values()])).toBeCloseTo(found / slice.length, 12);
    }
  });

  it('finds the seed’s example with memledger’s retrieval, where plain BM25 cannot split Chinese into words', () => {
    const seed = conversation.questions.find((q) => q.text === '这位客户能打电话吗？')!;
    const ours = evaluate(memledgerSystem(), conversation, [seed]).get(seed.id)!;
    const plain = evaluate(plainBm25System, conversation, [seed]).get(seed.id)!;
    expect(recallAt(5, ours.ranking, seed.gold)).toBe(1);
    expect(recallAt(10, plain.ranking, seed.gold)).toBe(0);
  });
});
