// `npm run bench -- retrieval-speed`: in process, at 1,000 and 10,000
// memories of one subject (bench/retrieval-quality/synthetic.ts), the cost
// of building memledger's retrieval index from already-decrypted texts and
// of answering one query (p50/p99 over many), against plain BM25
// (minisearch, default tokenizer and parameters) over the same texts in the
// same run. Also what a persisted index would cost to load instead of
// building (minisearch's own JSON, before any decryption) and the heap an
// index holds: the figures behind choosing a per-subject in-memory index
// cached by subject revision over a persisted read model.
//   MEMLEDGER_BENCH_RETRIEVAL_QUERIES   timed queries per size (default 2000)
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import MiniSearch from 'minisearch';
import { buildRetrievalIndex, requireRetrievalQuery, retrieve, type RetrievalDocument } from '../src/domain/retrieval/index.js';
import { loadConversation } from './retrieval-quality.js';
import { syntheticSubject } from './retrieval-quality/synthetic.js';
import type { Bench } from './run.js';
import { percentile } from './support/percentile.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const ms = (n: number) => `${n.toFixed(2)} ms`;

function timed(times: number, run: () => unknown): number[] {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    run();
    samples.push(performance.now() - started);
  }
  return samples.sort((a, b) => a - b);
}

function retained<T>(make: () => T): { value: T; bytes: number } {
  gc();
  const before = process.memoryUsage().heapUsed;
  const value = make();
  gc();
  return { value, bytes: process.memoryUsage().heapUsed - before };
}

type PlainText = Pick<RetrievalDocument, 'id' | 'content' | 'value'>;

const plainText = (d: PlainText) => ({ id: d.id, text: [d.content ?? '', d.value ?? ''].join(' ') });

/** Plain BM25: minisearch with its default tokenizer and parameters over content and value. */
export function plainIndex(docs: readonly PlainText[]) {
  const index = new MiniSearch<{ id: string; text: string }>({ fields: ['text'] });
  index.addAll(docs.map(plainText));
  return index;
}

export const retrievalSpeedBench: Bench = {
  name: 'retrieval-speed',
  needsDatabase: false,
  run: async ({ print }) => {
    const conversation = loadConversation();
    const questions = conversation.questions.map((q) => q.text);
    const queries = Number(process.env.MEMLEDGER_BENCH_RETRIEVAL_QUERIES ?? 2000);
    for (const size of [1_000, 10_000]) {
      const docs = syntheticSubject(conversation, size);
      const builds = size <= 1_000 ? 20 : 5;
      const oursBuild = timed(builds, () => buildRetrievalIndex(docs));
      const plainBuild = timed(builds, () => plainIndex(docs));
      const ours = retained(() => buildRetrievalIndex(docs));
      const plain = retained(() => plainIndex(docs));
      const json = JSON.stringify(ours.value.lexical);
      const load = timed(builds, () => MiniSearch.loadJSON(json, { fields: ['content', 'key', 'value', 'anticipated'] }));
      const parsed = questions.map((q) => requireRetrievalQuery({ query: q, topK: 20 }));
      for (let i = 0; i < 50; i++) retrieve(ours.value, parsed[i % parsed.length]!, { now: conversation.now });
      let i = 0;
      const oursQuery = timed(queries, () => retrieve(ours.value, parsed[i++ % parsed.length]!, { now: conversation.now }));
      let j = 0;
      const plainQuery = timed(queries, () => plain.value.search(questions[j++ % questions.length]!).slice(0, 20));
      const ratio = (a: number, b: number) => `${(a / b).toFixed(1)}x`;
      print(`${size.toLocaleString('en')} memories`);
      print(
        `  build          memledger p50 ${ms(percentile(oursBuild, 50))}  plain BM25 p50 ${ms(percentile(plainBuild, 50))}  (${ratio(percentile(oursBuild, 50), percentile(plainBuild, 50))})`,
      );
      print(
        `  query (top 20) memledger p50 ${ms(percentile(oursQuery, 50))} p99 ${ms(percentile(oursQuery, 99))}  plain BM25 p50 ${ms(percentile(plainQuery, 50))} p99 ${ms(percentile(plainQuery, 99))}  (p99 ${ratio(percentile(oursQuery, 99), percentile(plainQuery, 99))})`,
      );
      print(
        `  heap held      memledger ${(ours.bytes / 1_048_576).toFixed(1)} MiB  plain BM25 ${(plain.bytes / 1_048_576).toFixed(1)} MiB;  persisted lexical index ${(json.length / 1_048_576).toFixed(1)} MiB JSON, load p50 ${ms(percentile(load, 50))} (before decryption)`,
      );
    }
    await Promise.resolve();
  },
};
