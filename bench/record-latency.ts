// `record` latency at stream lengths 10, 1,000 and 100,000, in one process
// that keeps its folded subject states (as the service does): the median of
// the 100,000-event subject should be within 2x of the 10-event one. Streams
// are pre-filled through the domain decider and appended in big batches
// (sealed with one throwaway key: record never opens old values).
import { randomBytes } from 'node:crypto';
import { recordMemory } from '../src/commands/record.js';
import { toNewEvents } from '../src/commands/stream/new-events.js';
import { subjectStreamName } from '../src/domain/events/stream-names.js';
import type { SubjectEvent } from '../src/domain/events/subject-events.js';
import { decide } from '../src/domain/subject/decide.js';
import { fold } from '../src/domain/subject/evolve.js';
import { initialState } from '../src/domain/subject/state.js';
import { instantOf } from '../src/domain/values/instant.js';
import { keyedHash } from '../src/infrastructure/cipher/keyed-hash.js';
import { seal } from '../src/infrastructure/cipher/seal.js';
import { openLedger, type OpenLedger } from '../src/runtime/open-ledger.js';
import type { Bench } from './run.js';

const LENGTHS = [10, 1_000, 100_000];
const SAMPLES = 60;
const BATCH = 2_000;

async function prefill(ledger: OpenLedger, subject: string, length: number): Promise<void> {
  const stream = subjectStreamName('bench', subject);
  const key = randomBytes(32);
  let state = initialState();
  let revision = -1;
  let batch: ReturnType<typeof toNewEvents> = [];
  for (let i = 1; i <= length; i++) {
    const value = { type: 'text' as const, text: `value ${i}` };
    const decided = decide(state, {
      type: 'RecordMemory',
      memoryId: `m-${i}`,
      conflictId: `c-${i}`,
      now: instantOf(new Date()),
      entry: {
        kind: 'semantic',
        key: `fact.k${i}`,
        valueType: 'text',
        valueHash: keyedHash(key, JSON.stringify(value)),
        value: seal(JSON.stringify(value), key, 'mk_bench', { tenant: 'bench', subject, memoryId: `m-${i}`, field: 'value' }),
        polarity: 'affirmed',
        source: { type: 'verified_tool_fact', refs: [] },
        sensitivity: 'normal',
        scopes: {},
      },
    });
    if (!decided.ok) throw new Error(decided.rejection.message);
    state = fold(decided.events as SubjectEvent[], state);
    batch.push(...toNewEvents(decided.events, { stream, commandId: `${subject}-prefill-${i}` }));
    if (batch.length >= BATCH || i === length) {
      const r = await ledger.eventStore.append(stream, batch, { expectedRevision: revision < 0 ? 'no_stream' : revision });
      revision = r.nextExpectedRevision;
      batch = [];
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export const recordLatencyBench: Bench = {
  name: 'record-latency',
  async run({ databaseUrl, print }) {
    const ledger = await openLedger({
      env: { MEMLEDGER_EVENTSTORE_URL: databaseUrl, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
    });
    try {
      const medians = new Map<number, number>();
      for (const length of LENGTHS) {
        const subject = `len-${length}`;
        await prefill(ledger, subject, length);
        const ctx = { tenant: 'bench', subject };
        const load = performance.now();
        await ledger.subjects.load(subjectStreamName('bench', subject));
        const firstLoad = performance.now() - load;
        const samples: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const entry = {
            kind: 'profile',
            key: `bench.k${i}`,
            value: { type: 'text', text: `v${i}` },
            source: { type: 'user_assertion', refs: [] },
          };
          const started = performance.now();
          const outcome = await recordMemory(ledger, ctx, entry);
          samples.push(performance.now() - started);
          if (!outcome.ok) throw new Error(outcome.rejection.message);
        }
        medians.set(length, median(samples));
        print(
          `stream length ${length.toLocaleString('en')}: record median ${median(samples).toFixed(2)} ms, p90 ${[...samples].sort((a, b) => a - b)[Math.floor(SAMPLES * 0.9)]!.toFixed(2)} ms (first fold of the stream ${firstLoad.toFixed(0)} ms)`,
        );
      }
      const ratio = medians.get(100_000)! / medians.get(10)!;
      print(`median at 100,000 / median at 10: ${ratio.toFixed(2)}x (goal <= 2x)`);
    } finally {
      await ledger.close();
    }
  },
};
