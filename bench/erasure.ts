// Erasing one memory of a consolidated subject (two summary levels deriving
// from it; later erasures meet the summary rebuilt after the previous one),
// among other tenants' subjects: the whole pipeline (keys of the
// memory and of the summaries destroyed, key tables rewritten, tombstone,
// projections caught up, every read path checked, receipt) against the same
// pipeline without the checks, in the same run. Subjects of 100 and 1,000
// entries; 5 erasures each, medians.
import { randomBytes } from 'node:crypto';
import { importEntries, validateImportLines } from '../src/commands/import.js';
import { runConsolidation } from '../src/commands/consolidation/run.js';
import { shadowTenantsFrom, DEFAULT_TOKEN_BUDGET, type ConsolidationServices } from '../src/commands/consolidation/services.js';
import { forgetMemory } from '../src/commands/forget.js';
import { subjectStreamName } from '../src/domain/events/stream-names.js';
import { deterministicSummarizer } from '../src/infrastructure/summarizer/deterministic.js';
import { loadTokenCounter } from '../src/infrastructure/summarizer/tokenizer.js';
import { readSideErasureChecks } from '../src/queries/erasure/index.js';
import { catchUpWith, openReadSide } from '../src/queries/read-side.js';
import { openLedger, type OpenLedger } from '../src/runtime/open-ledger.js';
import type { Bench } from './run.js';

const SIZES = [100, 1_000];
const ERASURES = 5;
const OTHER_SUBJECTS = 200;
const OTHER_ENTRIES = 50;

function entry(i: number): Record<string, unknown> {
  return {
    kind: 'profile',
    key: `contact.k${i}`,
    value: { type: 'text', text: `+1 415 555 ${String(1000 + i).padStart(4, '0')}` },
    content: `Reach them on line ${i}.`,
    source: { type: 'user_assertion', refs: [`msg://bench/${i}`] },
  };
}

async function fill(ledger: OpenLedger, tenant: string, subject: string, count: number, from = 0): Promise<string[]> {
  const entries = validateImportLines(Array.from({ length: count }, (_, i) => entry(from + i)));
  await importEntries(ledger, { tenant, subject }, entries, { importId: `${tenant}-${subject}-${from}`, batchSize: 1000 });
  const state = (await ledger.subjects.load(subjectStreamName(tenant, subject))).state;
  return [...state.entries.keys()];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const erasureBench: Bench = {
  name: 'erasure',
  async run({ databaseUrl, print }) {
    const ledger = await openLedger({
      env: { MEMLEDGER_EVENTSTORE_URL: databaseUrl, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
    });
    const read = await openReadSide(ledger, { tokenizer: true });
    const services: ConsolidationServices = {
      summarizer: deterministicSummarizer(),
      countTokens: await loadTokenCounter(),
      tokenBudget: DEFAULT_TOKEN_BUDGET,
      shadowMode: shadowTenantsFrom(undefined),
    };
    try {
      for (let s = 0; s < OTHER_SUBJECTS; s += 1) await fill(ledger, `other-${s % 10}`, `s${s}`, OTHER_ENTRIES);
      print(`background: ${OTHER_SUBJECTS} subjects of ${OTHER_ENTRIES} entries in 10 other tenants`);
      for (const size of SIZES) {
        const times: Record<'checked' | 'unchecked', number[]> = { checked: [], unchecked: [] };
        let searched = 0;
        const derived: number[] = [];
        for (const mode of ['unchecked', 'checked'] as const) {
          const c = { tenant: 'bench', subject: `${mode}-${size}` };
          const ids = await fill(ledger, c.tenant, c.subject, size);
          for (let level = 0; level < 2; level += 1) {
            // The second summary is built on the first (its parent), over a few new entries.
            if (level === 1) await fill(ledger, c.tenant, c.subject, 10, size);
            const run = await runConsolidation(ledger, services, c);
            if (!run.ok || run.result.status !== 'switched') throw new Error(`consolidation did not switch: ${JSON.stringify(run)}`);
          }
          const catchUp = async () => void (await catchUpWith(read, [subjectStreamName(c.tenant, c.subject)]));
          await catchUp();
          for (let k = 0; k < ERASURES; k += 1) {
            // Each erasure meets a live summary: the one rebuilt from what the previous erasure left (not timed).
            if (k > 0) {
              const again = await runConsolidation(ledger, services, c);
              if (!again.ok || again.result.status !== 'switched')
                throw new Error(`re-consolidation did not switch: ${JSON.stringify(again)}`);
              await catchUp();
            }
            const options = mode === 'checked' ? { checks: readSideErasureChecks(read), beforeVerify: catchUp } : { beforeVerify: catchUp };
            const started = performance.now();
            const outcome = await forgetMemory(ledger, c, ids[k * 7]!, 'bench', options);
            times[mode].push(performance.now() - started);
            if (!outcome.ok) throw new Error(`erasure refused: ${JSON.stringify(outcome)}`);
            derived.push(outcome.result.derivedRecordsInvalidated ?? 0);
            if (mode === 'checked') {
              if (outcome.result.verification?.status !== 'passed') throw new Error(`verification ${outcome.result.verification?.status}`);
              searched = outcome.result.verification.checks.reduce((n, check) => n + check.searched, 0);
            }
          }
        }
        const checked = median(times.checked);
        const unchecked = median(times.unchecked);
        print(
          `${size.toLocaleString('en')} entries (summaries shredded per erasure: ${Math.min(...derived)}-${Math.max(...derived)}): erasure with every read path checked ${checked.toFixed(0)} ms (${searched.toLocaleString('en')} answers/rows/events searched) ` +
            `vs without the checks ${unchecked.toFixed(0)} ms = ${(checked / unchecked).toFixed(2)}x (median of ${ERASURES})`,
        );
      }
    } finally {
      await read.close();
      await ledger.close();
    }
  },
};
