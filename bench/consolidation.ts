// prepare + publish of one subject with 1,000 and 10,000 entries (a mix of
// chatter, numbers, negated constraints, scoped preferences, open items and
// conflicts), with the deterministic summarizer and the default token
// budget; then an incremental consolidation (+10% entries) on the published
// parent. Prints times and tokens of the summary text vs the raw inputs.
import { randomBytes } from 'node:crypto';
import { importEntries, validateImportLines } from '../src/commands/import.js';
import { prepareConsolidation, type PrepareResult } from '../src/commands/consolidation/prepare.js';
import { publishArtifact } from '../src/commands/consolidation/publish.js';
import { shadowTenantsFrom, DEFAULT_TOKEN_BUDGET, type ConsolidationServices } from '../src/commands/consolidation/services.js';
import { deterministicSummarizer } from '../src/infrastructure/summarizer/deterministic.js';
import { loadTokenCounter } from '../src/infrastructure/summarizer/tokenizer.js';
import { openLedger, type OpenLedger } from '../src/runtime/open-ledger.js';
import type { Bench } from './run.js';

const SIZES = [1_000, 10_000];
const WORDS = [
  'order',
  'delivery',
  'refund',
  'weekend',
  'courier',
  'invoice',
  'address',
  'package',
  'mentioned',
  'asked',
  'about',
  'the',
  'again',
  'later',
  'today',
];

/** `conflicts: false` for the increment, so the parent (same inputEpoch) may serve. */
function entry(i: number, conflicts: boolean): Record<string, unknown> {
  const chatter = Array.from({ length: 24 }, (_, k) => WORDS[(i * 7 + k * 3) % WORDS.length]).join(' ');
  if (conflicts && i % 97 === 1)
    return { kind: 'semantic', key: `decision.k${i - 1}`, value: { type: 'text', text: 'mysql' }, source: { type: 'model_inference' } };
  if (i % 97 === 0)
    return { kind: 'semantic', key: `decision.k${i}`, value: { type: 'text', text: 'postgres' }, source: { type: 'user_assertion' } };
  if (i % 10 === 0)
    return {
      kind: 'semantic',
      key: `order.o${i}.wait`,
      value: { type: 'number', amount: String(i % 96), unit: 'h' },
      content: `Refund wait for order ${i} is ${i % 96} hours.`,
      source: { type: 'verified_tool_fact' },
    };
  if (i % 17 === 0)
    return {
      kind: 'constraint',
      key: `contact.channel${i}`,
      value: { type: 'boolean', value: true },
      polarity: 'negated',
      content: 'Never use this channel.',
      source: { type: 'user_assertion' },
    };
  if (i % 23 === 0)
    return {
      kind: 'procedural',
      key: `task.followup.t${i}`,
      value: { type: 'text', text: 'awaits approval' },
      content: `Follow-up ${i} awaits approval.`,
      source: { type: 'verified_tool_fact' },
    };
  if (i % 31 === 0)
    return {
      kind: 'profile',
      key: 'notification.preference',
      scopes: { project: `shop-${i}` },
      value: { type: 'text', text: i % 2 ? 'sms' : 'email' },
      source: { type: 'user_assertion' },
    };
  return {
    kind: 'episodic',
    key: `chat.t${i}`,
    value: { type: 'text', text: `note ${i}` },
    content: `The user ${chatter}.`,
    source: { type: 'user_assertion' },
  };
}

async function fill(ledger: OpenLedger, subject: string, from: number, count: number, conflicts = true): Promise<void> {
  const entries = validateImportLines(Array.from({ length: count }, (_, k) => entry(from + k, conflicts)));
  await importEntries(ledger, { tenant: 'bench', subject }, entries, { importId: `${subject}-${from}`, batchSize: 1000 });
}

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

async function consolidate(
  ledger: OpenLedger,
  services: ConsolidationServices,
  subject: string,
): Promise<{ prepare: PrepareResult; prepareMs: number; publishMs: number }> {
  const [prepared, prepareMs] = await timed(() => prepareConsolidation(ledger, services, { tenant: 'bench', subject }));
  if (!prepared.ok || prepared.result.status !== 'gate_passed') throw new Error(`prepare did not pass: ${JSON.stringify(prepared)}`);
  const [published, publishMs] = await timed(() => publishArtifact(ledger, services, { tenant: 'bench' }, prepared.result.artifactId));
  if (!published.ok || published.result.status !== 'switched') throw new Error(`publish did not switch: ${JSON.stringify(published)}`);
  return { prepare: prepared.result, prepareMs, publishMs };
}

export const consolidationBench: Bench = {
  name: 'consolidation',
  async run({ databaseUrl, print }) {
    const ledger = await openLedger({
      env: { MEMLEDGER_EVENTSTORE_URL: databaseUrl, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
    });
    const services: ConsolidationServices = {
      summarizer: deterministicSummarizer(),
      countTokens: await loadTokenCounter(),
      tokenBudget: DEFAULT_TOKEN_BUDGET,
      shadowMode: shadowTenantsFrom(undefined),
    };
    const reductions: number[] = [];
    try {
      for (const size of SIZES) {
        const subject = `size-${size}`;
        const [, fillMs] = await timed(() => fill(ledger, subject, 1, size));
        for (const [label, run] of [
          ['full', () => consolidate(ledger, services, subject)],
          [
            'incremental +10%',
            async () => {
              await fill(ledger, subject, size + 1, size / 10, false);
              return consolidate(ledger, services, subject);
            },
          ],
        ] as const) {
          const { prepare, prepareMs, publishMs } = await run();
          const tokens = prepare.tokens!;
          const reduction = 1 - tokens.summary / tokens.rawInputs;
          reductions.push(reduction);
          print(
            `${size.toLocaleString('en')} entries, ${label}: prepare ${prepareMs.toFixed(0)} ms + publish ${publishMs.toFixed(0)} ms; ` +
              `${prepare.inputs} inputs (${prepare.gate.mustPreserveCount} must-preserve, ${prepare.coldTier} cold), parent ${prepare.parentArtifactId ? 'used' : 'none'}; ` +
              `tokens raw ${tokens.rawInputs.toLocaleString('en')} -> summary ${tokens.summary.toLocaleString('en')} (-${(reduction * 100).toFixed(1)}%)`,
          );
        }
        print(`(filling ${size.toLocaleString('en')} entries through import took ${(fillMs / 1000).toFixed(1)} s)`);
      }
      print(
        `average token reduction: ${((reductions.reduce((a, b) => a + b, 0) / reductions.length) * 100).toFixed(1)}% (budget ${DEFAULT_TOKEN_BUDGET} tokens of summary text; must-preserve content is never dropped, so the summary may exceed it)`,
      );
    } finally {
      await ledger.close();
    }
  },
};
