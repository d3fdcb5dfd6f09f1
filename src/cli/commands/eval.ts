// `memledger eval`: the evaluation harness (src/evaluation) on a case file
// (JSON Lines, src/domain/evaluation/case.ts) or the shipped set. The whole
// file is validated before anything runs (exit 2 naming the line and field).
// JSON on stdout, or a table when stdout is a terminal; exit 3 when a
// condition served a stale or unauthorized memory, the report printed still.
import type { Command } from 'commander';
import { ANSWERS } from '../../answers/answer-table.js';
import { parseCaseLines } from '../../domain/evaluation/case-lines.js';
import { CONDITIONS } from '../../domain/evaluation/conditions.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { DEFAULT_K, runEvaluation } from '../../evaluation/run.js';
import { SHIPPED_CASES } from '../../evaluation/shipped-cases.js';
import { renderTable } from '../../evaluation/table.js';
import { openReadSide } from '../../queries/read-side.js';
import { oneOf, readText } from '../input.js';
import { printError } from '../output.js';
import { run } from '../session.js';

/** recall's topK ceiling. */
const MAX_K = 200;

function kOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_K;
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n < 1 || n > MAX_K) throw new InvalidInput('k', `must be a whole number from 1 to ${MAX_K}`);
  return n;
}

export function registerEvalCommand(program: Command): void {
  program
    .command('eval')
    .description('score recall on evaluation cases under conditions A-E; exit 3 when a stale or unauthorized memory is served')
    .option('--cases <file>', 'JSON Lines, one case per line (- for stdin); default: the shipped set (eval/cases.jsonl)')
    .option('--condition <c>', 'only this condition: A no memory, B oracle, C production, D stale/conflicting, E unauthorized')
    .option('--k <n>', `judge the first n items (recall's topK), 1..${MAX_K} (default ${DEFAULT_K})`)
    .action((o: { cases?: string; condition?: string; k?: string }) =>
      run(async (ledger) => {
        const k = kOf(o.k);
        const conditions = o.condition === undefined ? CONDITIONS : [oneOf('condition', CONDITIONS, o.condition)];
        const text =
          o.cases === undefined ? readText('cases', `@${SHIPPED_CASES}`) : readText('cases', o.cases === '-' ? '-' : `@${o.cases}`);
        const cases = parseCaseLines(text);
        const opened = await ledger();
        const read = await openReadSide(opened, { tokenizer: true });
        try {
          const report = await runEvaluation(opened, read, cases, { conditions, k });
          if (process.stdout.isTTY) process.stdout.write(renderTable(report));
          if (report.blocking) {
            const which = report.conditions.filter((c) => c.blocking).map((c) => c.condition);
            printError({
              exitCode: ANSWERS.evaluation_blocked.exit,
              body: {
                error: 'evaluation_blocked',
                message: `stale or unauthorized memory served under ${which.join(', ')}`,
                conditions: which,
              },
            });
            process.exitCode = ANSWERS.evaluation_blocked.exit;
          }
          return process.stdout.isTTY ? undefined : report;
        } finally {
          await read.close();
        }
      }),
    );
}
