// Consolidation of a realistic history (issue 15): one customer account and
// its project, 2,400 entries whose content is the information (order,
// refund, ticket, invoice and delivery notes, contact rules, scoped
// preferences, access grants, decisions, meetings, tasks, small talk; ids,
// amounts, dates, times and negations; a third in Chinese), generated from a
// seed. Prints, side by side, the tokens of what is served — the summary
// text, and what recall answers — against the raw entries, and the daily
// evaluation's must-preserve recall and false new facts; then what limits
// the reduction, and the times of a full and an incremental consolidation
// at 2,400 and 10,000 entries.
import { randomBytes } from 'node:crypto';
import { importEntries, validateImportLines, type ImportResult } from '../src/commands/import.js';
import { prepareConsolidation, type PrepareResult } from '../src/commands/consolidation/prepare.js';
import { publishArtifact } from '../src/commands/consolidation/publish.js';
import { readableSummary } from '../src/commands/consolidation/readable-summary.js';
import { shadowTenantsFrom, DEFAULT_TOKEN_BUDGET, type ConsolidationServices } from '../src/commands/consolidation/services.js';
import type { SummarizerOutput } from '../src/domain/consolidation/output.js';
import { openEntries } from '../src/reads/opened/opened-entries.js';
import { summaryText } from '../src/domain/consolidation/deterministic-summary.js';
import { renderTyped } from '../src/domain/consolidation/rendering.js';
import { selectEntries } from '../src/domain/consolidation/selector.js';
import { takeSnapshot } from '../src/domain/consolidation/snapshot.js';
import { claimText } from '../src/domain/consolidation/statements.js';
import { subjectStreamName } from '../src/domain/events/stream-names.js';
import { sentences } from '../src/domain/consolidation/text-facts/segments.js';
import { deterministicSummarizer } from '../src/infrastructure/summarizer/deterministic.js';
import { loadTokenCounter } from '../src/infrastructure/summarizer/tokenizer.js';
import { catchUp, openReadSide } from '../src/queries/read-side.js';
import { recall } from '../src/queries/recall/recall.js';
import { measureSummary } from '../src/queries/verify/summary-metrics.js';
import { verify } from '../src/queries/verify/verify.js';
import type { Aggregate } from '../src/queries/verify/verify-report.js';
import { openLedger, type OpenLedger } from '../src/runtime/open-ledger.js';
import type { Bench } from './run.js';
import { customerHistory, type HistoryEntry } from './support/customer-history.js';

const MEASURED = 2_400;
const TIMED = [2_400, 10_000];

async function timed<T>(run: () => Promise<T>): Promise<[T, number]> {
  const started = performance.now();
  const result = await run();
  return [result, performance.now() - started];
}

async function fill(
  ledger: OpenLedger,
  tenant: string,
  subject: string,
  entries: readonly HistoryEntry[],
  from: number,
): Promise<ImportResult> {
  const outcome = await importEntries(ledger, { tenant, subject }, validateImportLines(entries), {
    importId: `${subject}-${from}`,
    batchSize: 1000,
  });
  if (!outcome.ok) throw new Error(`import refused: ${JSON.stringify(outcome.rejection)}`);
  return outcome.result;
}

async function consolidate(ledger: OpenLedger, services: ConsolidationServices, tenant: string, subject: string) {
  const [prepared, prepareMs] = await timed(() => prepareConsolidation(ledger, services, { tenant, subject }));
  if (!prepared.ok || prepared.result.status !== 'gate_passed') throw new Error(`prepare did not pass: ${JSON.stringify(prepared)}`);
  const [published, publishMs] = await timed(() => publishArtifact(ledger, services, { tenant }, prepared.result.artifactId));
  if (!published.ok || published.result.status !== 'switched') throw new Error(`publish did not switch: ${JSON.stringify(published)}`);
  return { prepare: prepared.result, prepareMs, publishMs };
}

const n = (x: number) => x.toLocaleString('en');
const pct = (x: number | null) => (x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const row = (label: string, raw: number, served: number) =>
  `  ${label.padEnd(34)} ${n(raw).padStart(9)} ${n(served).padStart(15)} ${`${((1 - served / raw) * 100).toFixed(1)}%`.padStart(10)}`;

export const consolidationBench: Bench = {
  name: 'consolidation',
  async run({ databaseUrl, print }) {
    const ledger = await openLedger({
      env: { MEMLEDGER_EVENTSTORE_URL: databaseUrl, MEMLEDGER_MASTER_KEY: randomBytes(32).toString('base64') },
    });
    const countTokens = await loadTokenCounter();
    const services: ConsolidationServices = {
      summarizer: deterministicSummarizer(),
      countTokens,
      tokenBudget: DEFAULT_TOKEN_BUDGET,
      shadowMode: shadowTenantsFrom(undefined),
    };
    const read = await openReadSide(ledger);
    try {
      const history = customerHistory(MEASURED);
      const chinese = history.filter((e) => /\p{Script=Han}/u.test(e.content)).length;
      const imported = await fill(ledger, 'measured', 'customer-acme', history, 1);
      print(
        `history: ${n(MEASURED)} entries (${n(chinese)} in Chinese), seed 15; import decided ` +
          Object.entries(imported.decisions)
            .map(([k, v]) => `${k} ${n(v)}`)
            .join(', '),
      );
      await catchUp(read);
      const before = await recall(read, { tenant: 'measured', subject: 'customer-acme' });
      const { prepare } = await consolidate(ledger, services, 'measured', 'customer-acme');
      await catchUp(read);
      const after = await recall(read, { tenant: 'measured', subject: 'customer-acme' });
      const summary = await readableSummary(ledger, { tenant: 'measured', subject: 'customer-acme' });
      if (summary.status !== 'summary' || after.source !== 'summary') throw new Error('the published summary is not served');
      const report = await verify(read, services, { tenant: 'measured' });

      print(
        `inputs ${n(prepare.inputs)}: ${n(prepare.gate.mustPreserveCount!)} must-preserve facts (typed statements and facts of the words), ${n(prepare.coldTier)} in the cold tier; ` +
          `${n(summary.output.claims.length)} claims, ${n(summary.output.openItems.length)} open items`,
      );
      print(`${''.padEnd(36)} ${'raw entries'.padStart(9)} ${'served summary'.padStart(15)} ${'reduction'.padStart(10)}`);
      print(row('summary text (cl100k tokens)', prepare.tokens!.rawInputs, prepare.tokens!.summary));
      print(row('recall, no budget (items served)', before.budget.used, after.budget.used));
      print(`  must-preserve recall and false new facts (verify: rebuilt from raw / as served):`);
      for (const [label, pick] of [
        ['key facts (typed)', (a: Aggregate) => pct(a.keyFactRecall)],
        ['facts of the words', (a: Aggregate) => `${pct(a.textFactRecall)} of ${n(a.textFacts)}`],
        ['unresolved conflicts kept', (a: Aggregate) => pct(a.conflictRetentionRate)],
        ['false new facts', (a: Aggregate) => `${n(a.falseStatements)} of ${n(a.statements)} statements`],
      ] as const) {
        print(`    ${label.padEnd(30)} ${pick(report.rebuilt).padStart(22)}   ${pick(report.published).padStart(22)}`);
      }
      print(`  verify ${report.passed ? 'passed' : `FAILED: ${report.failures.join('; ')}`}; STALE visible: ${report.staleVisible}`);
      const typedOnly = await typedOnlyBaseline(ledger, services, summary.output);
      print(
        `  baseline, the same claims as typed statements only (what deterministic-v1 served): summary text ${n(typedOnly.summaryTokens)} tokens ` +
          `(${((1 - typedOnly.summaryTokens / prepare.tokens!.rawInputs) * 100).toFixed(1)}% reduction), facts of the words recalled ${pct(typedOnly.textFactsRecalled / typedOnly.textFacts)}`,
      );
      printLimits(print, summary.output, history, countTokens);

      for (const size of TIMED) {
        const subject = `timed-${size}`;
        const entries = customerHistory(size + size / 10, size);
        const [, fillMs] = await timed(() => fill(ledger, 'timed', subject, entries.slice(0, size), 1));
        const full = await consolidate(ledger, services, 'timed', subject);
        await fill(ledger, 'timed', subject, entries.slice(size), size + 1);
        const increment = await consolidate(ledger, services, 'timed', subject);
        for (const [label, r] of [
          ['full', full],
          ['incremental +10%', increment],
        ] as const) {
          print(timing(size, label, r.prepare, r.prepareMs, r.publishMs));
        }
        print(`(importing ${n(size)} entries took ${(fillMs / 1000).toFixed(1)} s)`);
      }
    } finally {
      await read.close();
      await ledger.close();
    }
  },
};

/** The published claims without their words, measured against the same inputs: the reduction bought by losing the words. */
async function typedOnlyBaseline(ledger: OpenLedger, services: ConsolidationServices, output: SummarizerOutput) {
  const ref = { tenant: 'measured', subject: 'customer-acme' };
  const stream = subjectStreamName(ref.tenant, ref.subject);
  const loaded = await ledger.subjects.load(stream);
  const now = ledger.clock().toISOString();
  const ids = new Set(selectEntries(loaded.state, { now }).entries.map((e) => e.memoryId));
  const open = await openEntries(ledger.eventStore, ledger.keyStore, ref, stream, loaded.revision, ids);
  const snapshot = takeSnapshot(loaded.state, open, {
    ...ref,
    now,
    tokenBudget: services.tokenBudget,
    countTokens: services.countTokens,
    promptVersion: 'baseline',
    modelSnapshot: 'baseline',
    fromRaw: true,
  });
  const claims = output.claims.map((c) => ({
    key: c.key,
    scopes: c.scopes,
    value: c.value,
    polarity: c.polarity,
    derivedFrom: c.derivedFrom,
    ...(c.conflictIds ? { conflictIds: c.conflictIds } : {}),
  }));
  const typedOnly = { ...output, claims, summary: summaryText(claims, output.openItems, snapshot.conflicts) };
  return measureSummary(snapshot.inputs, snapshot.mustPreserve, snapshot.conflicts, typedOnly, services.countTokens);
}

/** Where the served tokens go: the words kept, the typed statements still shown, and how much of the words is left out. */
function printLimits(
  print: (line: string) => void,
  output: SummarizerOutput,
  history: readonly HistoryEntry[],
  countTokens: (t: string) => number,
) {
  const sum = (texts: readonly string[]) => texts.reduce((t, s) => t + countTokens(s), 0);
  const shown = output.claims.filter((c) => claimText(c).startsWith(renderTyped(c)));
  const typed = sum(shown.map(renderTyped));
  const words = sum(output.claims.flatMap((c) => (c.statement !== undefined ? [c.statement] : [])));
  const items = sum(output.openItems.map((o) => o.text));
  const raw = sum(history.map((e) => e.content));
  const rawSentences = history.reduce((t, e) => t + sentences(e.content).length, 0);
  const keptSentences = [
    ...output.claims.flatMap((c) => (c.statement ? [c.statement] : [])),
    ...output.openItems.map((o) => o.text),
  ].reduce((t, s) => t + sentences(s).length, 0);
  print(
    `  what limits it: of the summary, the claims' words take ${n(words)} tokens, typed statements shown where the words do not restate them (${n(shown.length)} of ${n(output.claims.length)} claims) ${n(typed)}, open items (never shortened) ${n(items)}; ` +
      `the words keep ${n(keptSentences)} of ${n(rawSentences)} sentences (those holding a fact: an id, amount, date, time, number or negation), ` +
      `${n(raw)} tokens of content in all`,
  );
}

function timing(size: number, label: string, prepare: PrepareResult, prepareMs: number, publishMs: number): string {
  const tokens = prepare.tokens!;
  return (
    `${n(size)} entries, ${label}: prepare ${prepareMs.toFixed(0)} ms + publish ${publishMs.toFixed(0)} ms; ` +
    `${n(prepare.inputs)} inputs (${n(prepare.gate.mustPreserveCount!)} must-preserve facts, ${n(prepare.coldTier)} cold), parent ${prepare.parentArtifactId ? 'used' : 'none'}; ` +
    `tokens raw ${n(tokens.rawInputs)} -> summary ${n(tokens.summary)} (-${((1 - tokens.summary / tokens.rawInputs) * 100).toFixed(1)}%)`
  );
}
