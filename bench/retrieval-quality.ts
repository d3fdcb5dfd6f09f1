// `npm run bench -- retrieval-quality`: recall@5 and recall@10 of
// memledger's retrieval against plain BM25 over the same conversation
// history (bench/retrieval-quality/conversation.json: 560 turns, 114
// questions, English and Chinese), computed in the same run, overall, per
// language and per split (tune / holdout). Goal: recall@10 >= 1.1x BM25's.
import { readFileSync } from 'node:fs';
import type { Bench } from './run.js';
import { DATA_FILE, type Conversation, type ConversationQuestion } from './retrieval-quality/generate.js';
import { meanReciprocalRank, meanRecallAt, type Scored } from './retrieval-quality/metrics.js';
import { memledgerSystem, plainBm25System, tokenizedBm25System, type System } from './retrieval-quality/systems.js';

export function loadConversation(): Conversation {
  return JSON.parse(readFileSync(DATA_FILE, 'utf8')) as Conversation;
}

export function evaluate(system: System, conversation: Conversation, questions: readonly ConversationQuestion[]): Map<string, Scored> {
  const answer = system.prepare(conversation);
  return new Map(questions.map((q) => [q.id, { ranking: answer(q.text, 10), gold: q.gold }]));
}

const slices: ReadonlyArray<readonly [string, (q: ConversationQuestion) => boolean]> = [
  ['all', () => true],
  ['english', (q) => q.lang === 'en'],
  ['chinese', (q) => q.lang === 'zh'],
  ['tune', (q) => q.split === 'tune'],
  ['holdout', (q) => q.split === 'holdout'],
];

export const retrievalQualityBench: Bench = {
  name: 'retrieval-quality',
  needsDatabase: false,
  run: async ({ print }) => {
    const conversation = loadConversation();
    const { questions } = conversation;
    print(`${conversation.turns.length} turns, ${questions.length} questions (${questions.filter((q) => q.lang === 'zh').length} Chinese)`);
    const systems = [plainBm25System, tokenizedBm25System, memledgerSystem()];
    const results = systems.map((s) => ({ system: s, scored: evaluate(s, conversation, questions) }));
    const baseline = results[0]!;
    for (const [slice, keep] of slices) {
      const ids = questions.filter(keep).map((q) => q.id);
      const pick = (scored: Map<string, Scored>) => ids.map((id) => scored.get(id)!);
      print(`${slice} (${ids.length} questions)`);
      const base10 = meanRecallAt(10, pick(baseline.scored));
      const base5 = meanRecallAt(5, pick(baseline.scored));
      for (const { system, scored } of results) {
        const r5 = meanRecallAt(5, pick(scored));
        const r10 = meanRecallAt(10, pick(scored));
        const mrr = meanReciprocalRank(pick(scored));
        const ratio = (value: number, base: number) => (base > 0 ? `${(value / base).toFixed(2)}x` : 'n/a');
        print(
          `  ${system.name.padEnd(36)} recall@5 ${r5.toFixed(3)} (${ratio(r5, base5)})  recall@10 ${r10.toFixed(3)} (${ratio(r10, base10)})  MRR ${mrr.toFixed(3)}`,
        );
      }
    }
    await Promise.resolve();
  },
};
