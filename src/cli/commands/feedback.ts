// The feedback loop on the command line (issue 18): `memledger feedback`
// (through the same command function and schema as POST
// /v1/subjects/{s}/feedback) and `memledger recalls show` (what a recall
// served, for an auditor). A bad flag names the flag: --recall, --memory,
// --type, --source, --evidence.
import type { Command } from 'commander';
import { giveFeedback } from '../../commands/feedback/give-feedback.js';
import { FEEDBACK_SOURCES, FEEDBACK_TYPES } from '../../domain/usage/usage.js';
import { showRecall } from '../../queries/recalls/show-recall.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { asFlags } from '../input.js';
import { resultOf } from '../output.js';
import { contextOf, run } from '../session.js';

const FLAG_OF: Readonly<Record<string, string>> = { recallId: 'recall', memoryId: 'memory' };

export function registerFeedbackCommands(program: Command): void {
  program
    .command('feedback')
    .description('feedback on a memory a recall served; harmful holds it for review (memledger candidates)')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .requiredOption('--recall <id>', 'the recallId of the answer that served the memory')
    .requiredOption('--memory <id>', 'the memory')
    .requiredOption('--type <type>', FEEDBACK_TYPES.join('|'))
    .option('--source <source>', FEEDBACK_SOURCES.join('|'), 'user')
    .option('--evidence <ref...>', 'refs to what shows it (stored in clear: refs only)')
    .option('--idempotency-key <key>', 'retry-safe key for the command')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(
          subjectSchema.extend({ recall: opt.text, memory: opt.text, type: opt.text, source: opt.text, evidence: opt.optionalList }),
          flags,
        );
        const context = contextOf(o);
        const input = { recallId: o.recall, memoryId: o.memory, type: o.type, source: o.source, evidence: o.evidence ?? [] };
        return resultOf(await asFlags(FLAG_OF, async () => giveFeedback(await ledger(), context, input)));
      }),
    );
  program
    .command('recalls')
    .description('what recalls served, for an auditor')
    .command('show')
    .description(
      'one recall: items by position (memory ids, versions, scores, reason codes), its parameters, the question if still readable',
    )
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .requiredOption('--recall <id>', 'the recallId')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ recall: opt.text }), flags);
        const { tenant, subject } = contextOf(o);
        const l = await ledger();
        return showRecall(l, { tenant, subject, recallId: o.recall });
      }),
    );
}
