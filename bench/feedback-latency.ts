// Feedback latency on a subject that has served many recalls: feedback finds
// the recall it is about in the subject's recall stream (each record tens of
// KB), newest first. Measured at 0 and at RECALLS earlier recalls of one
// subject, against a baseline in the same run: one indexed SELECT of the
// stream's newest record. Goal: feedback on a recent recall costs about the
// same however many recalls the subject served before.
//   MEMLEDGER_BENCH_FEEDBACK_RECALLS   recalls served before the measured ones (default 600)
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { giveFeedback } from '../src/commands/feedback/give-feedback.js';
import { recordMemory } from '../src/commands/record.js';
import { recallStreamName, subjectStreamName } from '../src/domain/events/stream-names.js';
import { catchUpWith, openReadSide, type OpenReadSide } from '../src/queries/read-side.js';
import { recall } from '../src/queries/recall/recall.js';
import { openLedger, type OpenLedger } from '../src/runtime/open-ledger.js';
import type { Bench } from './run.js';
import { percentile } from './support/percentile.js';

const MEMORIES = 30;
const SAMPLES = 40;
const QUESTION = 'which courier ships the order';

async function timed(samples: number, run: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < samples; i++) {
    const started = performance.now();
    await run(i);
    out.push(performance.now() - started);
  }
  return out.sort((a, b) => a - b);
}

/** A subject of MEMORIES memories that has served `earlier` recalls with a question; returns one more recall and the memory it served first. */
async function servedSubject(ledger: OpenLedger, read: OpenReadSide, subject: string, earlier: number) {
  const ctx = { tenant: 'bench', subject };
  for (let i = 0; i < MEMORIES; i++) {
    const text = `Order ORD-${i} ships by courier ${i % 7}.`;
    const recorded = await recordMemory(ledger, ctx, {
      kind: 'semantic',
      key: `order.o${i}`,
      value: { type: 'text', text },
      content: text,
      source: { type: 'user_assertion', refs: [`msg://${i}`] },
    });
    if (!recorded.ok) throw new Error(recorded.rejection.message);
  }
  await catchUpWith(read, [subjectStreamName('bench', subject)]);
  for (let i = 0; i < earlier; i++) await recall(read, { ...ctx, query: QUESTION });
  const last = await recall(read, { ...ctx, query: QUESTION });
  const served = last.items.find((item) => item.type === 'memory');
  if (!served || served.type !== 'memory') throw new Error('the recall served no memory');
  return { ctx, recallId: last.recallId, memoryId: served.memoryId };
}

export const feedbackLatencyBench: Bench = {
  name: 'feedback-latency',
  async run({ databaseUrl, print }) {
    const recalls = Number(process.env.MEMLEDGER_BENCH_FEEDBACK_RECALLS ?? 600);
    const ledger = await openLedger({
      env: { MEMLEDGER_EVENTSTORE_URL: databaseUrl, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
    });
    const read = await openReadSide(ledger, { tokenizer: true });
    const sql = new pg.Client({ connectionString: databaseUrl });
    await sql.connect();
    try {
      const started = performance.now();
      const fresh = await servedSubject(ledger, read, 'few', 0);
      const busy = await servedSubject(ledger, read, 'many', recalls);
      print(
        `2 subjects of ${MEMORIES} memories, one with ${recalls} recalls served before, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
      const baseline = await timed(SAMPLES, () =>
        sql.query('select data from events where stream_name = $1 order by stream_revision desc limit 1', [
          recallStreamName('bench', 'many'),
        ]),
      );
      const results: Array<[string, number[]]> = [];
      for (const [label, subject] of [
        ['after 0 recalls', fresh],
        [`after ${recalls} recalls`, busy],
      ] as const) {
        results.push([
          label,
          await timed(SAMPLES, async (i) => {
            const given = await giveFeedback(
              ledger,
              { ...subject.ctx, idempotencyKey: `fb-${label}-${i}` },
              {
                recallId: subject.recallId,
                memoryId: subject.memoryId,
                type: 'used',
              },
            );
            if (!given.ok) throw new Error(given.rejection.message);
          }),
        ]);
      }
      const ms = (n: number) => `${n.toFixed(2)} ms`;
      print(`baseline (SELECT of the newest recall record): p50 ${ms(percentile(baseline, 50))}, p99 ${ms(percentile(baseline, 99))}`);
      for (const [label, samples] of results)
        print(
          `feedback on the newest recall ${label}: p50 ${ms(percentile(samples, 50))}, p99 ${ms(percentile(samples, 99))} (${(percentile(samples, 50) / percentile(baseline, 50)).toFixed(1)}x the baseline's p50)`,
        );
      const ratio = percentile(results[1]![1], 50) / percentile(results[0]![1], 50);
      print(`p50 after ${recalls} recalls / after 0: ${ratio.toFixed(2)}x (goal <= 1.5x)`);
    } finally {
      await sql.end();
      await read.close();
      await ledger.close();
    }
  },
};
