import { describe, expect, it } from 'vitest';
import {
  buildRetrievalIndex,
  DEFAULT_RETRIEVAL_POLICY,
  requireRetrievalQuery,
  retrieve,
  sumOfContributions,
} from '../../../src/domain/retrieval/index.js';
import { InvalidInput } from '../../../src/domain/validation/invalid-input.js';
import { ask, codes, doc, idsOf, NOW } from './documents.js';

const profile = [
  doc('sms', { key: 'notification.preference', value: 'sms', content: 'Prefers SMS for logistics updates; never phone calls.' }),
  doc('quiet', { key: 'notification.quiet_hours', value: '22:00-08:00', content: 'No messages at night.' }),
  doc('lang', { key: 'profile.language', value: 'zh-CN', content: 'Answers in Chinese, short and direct.' }),
  doc('order', { kind: 'episodic', key: 'order.issue', content: '订单 ORD-A1B2C3D4 三天没发货' }),
  doc('callback', { kind: 'episodic', key: 'service.callback', content: '用户不接受电话回访' }),
  doc('coffee', { kind: 'episodic', key: 'chat.turn', content: '用户喜欢喝美式咖啡' }),
];

describe('retrieve', () => {
  it('answers the seed’s Chinese question with the memory it means', () => {
    const answer = ask(profile, { query: '这位客户能打电话吗' });
    expect(idsOf(answer.hits[0]!)).toEqual(['callback']);
    const lexical = answer.hits[0]!.retrieval.reasons.find((r) => r.code === 'lexical_match');
    expect(lexical).toMatchObject({ terms: expect.arrayContaining(['电话']) as unknown, fields: ['content'] });
  });

  it('finds an order by its id, whole', () => {
    expect(idsOf(ask(profile, { query: 'what happened with ORD-A1B2C3D4?' }).hits[0]!)).toEqual(['order']);
  });

  it('explains every hit: reasons add up to the score, ranks run 1..n, scores never rise', () => {
    const answer = ask(profile, { query: 'how should notification messages reach the user at night?' });
    expect(answer.hits.length).toBeGreaterThan(1);
    answer.hits.forEach((hit, i) => {
      expect(hit.retrieval.rank).toBe(i + 1);
      expect(sumOfContributions(hit.retrieval.reasons)).toBeCloseTo(hit.retrieval.score, 12);
      if (i > 0) expect(hit.retrieval.score).toBeLessThanOrEqual(answer.hits[i - 1]!.retrieval.score);
      expect(codes(hit)).toEqual(expect.arrayContaining(['relevance', 'trust', 'freshness', 'confidence']));
    });
  });

  it('matches a key named by the query’s words, and says so', () => {
    const answer = ask(profile, { query: 'notification preference?' });
    expect(idsOf(answer.hits[0]!)).toEqual(['sms']);
    expect(answer.hits[0]!.retrieval.reasons).toContainEqual(
      expect.objectContaining({ code: 'key_match', via: 'query_terms', strength: 1 }),
    );
    expect(answer.signals.key).toBeGreaterThan(0);
  });

  it('filters by key pattern and by kind', () => {
    const byKey = ask(profile, { query: 'messages', key: 'notification.*' });
    expect(byKey.hits.flatMap(idsOf).sort()).toEqual(['quiet', 'sms']);
    expect(byKey.hits[0]!.retrieval.reasons).toContainEqual(
      expect.objectContaining({ code: 'key_match', via: 'key_filter', strength: 0.5 }),
    );
    const exact = ask(profile, { query: 'anything at all', key: 'profile.language' });
    expect(exact.hits.map((h) => [idsOf(h), h.retrieval.reasons.find((r) => r.code === 'key_match')])).toEqual([
      [['lang'], expect.objectContaining({ via: 'key_filter', strength: 1 })],
    ]);
    expect(ask(profile, { query: '用户', kind: 'episodic' }).hits.flatMap(idsOf).sort()).toEqual(['callback', 'coffee']);
  });

  it('honestly returns nothing when nothing clears minScore, and nothing for a question without matches', () => {
    const scores = ask(profile, { query: 'night messages' }).hits.map((h) => h.retrieval.score);
    const floor = scores[0]! + 0.01;
    const strict = ask(profile, { query: 'night messages', minScore: floor });
    expect(strict.hits).toEqual([]);
    expect(strict.belowMinScore).toBe(scores.length);
    const some = ask(profile, { query: 'night messages', minScore: scores[0]! });
    expect(some.hits).toHaveLength(1);
    expect(ask(profile, { query: 'quantum chromodynamics' }).hits).toEqual([]);
  });

  it('caps the count at topK', () => {
    const many = Array.from({ length: 30 }, (_, i) =>
      doc(`m${String(i).padStart(2, '0')}`, { kind: 'episodic', content: `parcel number ${i} left at door ${i * 7}` }),
    );
    expect(ask(many, { query: 'parcel door', topK: 5 }).hits).toHaveLength(5);
    expect(ask(many, { query: 'parcel door' }).hits).toHaveLength(20);
  });

  it('finds memories by their anticipated queries', () => {
    const docs = [
      doc('callback', { key: 'service.note', content: '用户不接受电话回访', anticipatedQueries: ['can we call this customer?'] }),
      doc('other', { content: 'Prefers the night shift.' }),
    ];
    const answer = ask(docs, { query: 'Can we call them?' });
    expect(idsOf(answer.hits[0]!)).toEqual(['callback']);
    expect(answer.hits[0]!.retrieval.reasons).toContainEqual(expect.objectContaining({ code: 'lexical_match', fields: ['anticipated'] }));
  });

  it('ranks by cosine when vectors are given, fused with the words', () => {
    const docs = [
      doc('a', { kind: 'episodic', content: 'alpha', vector: [1, 0, 0] }),
      doc('b', { kind: 'episodic', content: 'beta', vector: [0, 1, 0] }),
      doc('c', { kind: 'episodic', content: 'gamma', vector: [0.7, 0.7, 0] }),
    ];
    const answer = ask(docs, { query: 'something unrelated' }, { queryVector: [0.9, 0.1, 0] });
    expect(answer.hits.map((h) => idsOf(h)[0])).toEqual(['a', 'c']);
    expect(answer.hits[0]!.retrieval.reasons).toContainEqual(expect.objectContaining({ code: 'semantic_match', rank: 1 }));
    expect(() => ask(docs, { query: 'x' }, { queryVector: [1, 0] })).toThrow(InvalidInput);
    expect(() => buildRetrievalIndex([doc('a', { vector: [1, 0] }), doc('b', { vector: [1] })])).toThrow(InvalidInput);
  });

  it('weighs trust, freshness, confidence, priority and sensitivity between equal matches', () => {
    const same = (id: string, o: Parameters<typeof doc>[1]) => doc(id, { kind: 'episodic', content: 'the blue bicycle', ...o });
    const order = (docs: ReturnType<typeof doc>[]) => ask(docs, { query: 'blue bicycle' }).hits.map((h) => idsOf(h)[0]);
    // distinct keys and slightly different words, so they stay separate hits
    const pair = (a: Parameters<typeof doc>[1], b: Parameters<typeof doc>[1]) =>
      order([same('x', { ...a, content: 'the blue bicycle in the shed' }), same('y', { ...b, content: 'the blue bicycle at work' })]);
    expect(pair({ trust: 'model_inference' }, { trust: 'human_review' })).toEqual(['y', 'x']);
    expect(pair({ recordedAt: '2026-01-01T00:00:00.000Z' }, { recordedAt: '2026-11-30T00:00:00.000Z' })).toEqual(['y', 'x']);
    expect(pair({ confidence: 0.2 }, { confidence: 0.9 })).toEqual(['y', 'x']);
    expect(pair({}, { priority: 1 })).toEqual(['y', 'x']);
    expect(pair({ sensitivity: 'confidential' }, { sensitivity: 'normal' })).toEqual(['y', 'x']);
    // constraints do not fade
    const rule = ask([same('r', { kind: 'constraint', recordedAt: '2020-01-01T00:00:00.000Z' })], { query: 'bicycle' }).hits[0]!;
    expect(rule.retrieval.reasons).toContainEqual(
      expect.objectContaining({ code: 'freshness', contribution: DEFAULT_RETRIEVAL_POLICY.weights.freshness, halfLifeDays: null }),
    );
  });

  it('spreads the list over different things (MMR) and says what a hit was similar to', () => {
    const docs = [
      doc('a1', { kind: 'episodic', content: 'parcel left at the front door by the courier today' }),
      doc('a2', { kind: 'episodic', content: 'parcel left at the front door by the courier yesterday' }),
      doc('b', { kind: 'episodic', content: 'a parcel locker by the back door of the King Street station' }),
    ];
    const index = buildRetrievalIndex(docs);
    const order = (diversity: number) =>
      retrieve(index, requireRetrievalQuery({ query: 'parcel at the door' }), {
        now: NOW,
        policy: { ...DEFAULT_RETRIEVAL_POLICY, penalties: { ...DEFAULT_RETRIEVAL_POLICY.penalties, diversity } },
      }).hits;
    expect(order(0).map((h) => idsOf(h)[0])).toEqual(['a1', 'a2', 'b']);
    const diverse = order(DEFAULT_RETRIEVAL_POLICY.penalties.diversity);
    expect(diverse.map((h) => idsOf(h)[0])).toEqual(['a1', 'b', 'a2']);
    expect(diverse[2]!.retrieval.reasons).toContainEqual(expect.objectContaining({ code: 'diversity', similarTo: 'a1' }));
  });

  it('never puts another memory’s text in a hit’s reasons', () => {
    const answer = ask(profile, { query: 'notification messages night phone calls SMS Chinese 用户 电话' });
    for (const hit of answer.hits) {
      const text = JSON.stringify(hit.retrieval.reasons);
      for (const other of profile.filter((d) => !idsOf(hit).includes(d.id))) {
        expect(text).not.toContain(other.content!);
        expect(text).not.toContain(other.value ?? '\u0000');
      }
    }
  });

  it('refuses a bad now and a document id given twice', () => {
    const index = buildRetrievalIndex(profile);
    expect(() => retrieve(index, requireRetrievalQuery({ query: 'x' }), { now: 'yesterday' })).toThrow(InvalidInput);
    expect(() => buildRetrievalIndex([doc('a'), doc('a')])).toThrow(InvalidInput);
    expect(() => buildRetrievalIndex([doc('a', { recordedAt: 'soon' })])).toThrow(InvalidInput);
    expect(retrieve(index, requireRetrievalQuery({ query: 'sms' }), { now: NOW }).hits.length).toBeGreaterThan(0);
  });
});
