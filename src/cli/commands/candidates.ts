// `memledger candidates list|accept|reject --tenant T --subject S`: the writes
// the gate held for review (issue 17), through the same command functions as
// the HTTP routes. accept runs the normal write decision on the proposed
// entry; reject keeps the proposal for audit. Refusals follow the answer
// table: proposal_not_found and proposal_not_pending exit 3.
import type { Command } from 'commander';
import { z } from 'zod';
import { sweepCandidatesOnce } from '../../api/service/candidate-sweeper.js';
import { acceptCandidate, listCandidates, rejectCandidate } from '../../commands/policy/candidates.js';
import { PROPOSAL_STATUSES } from '../../domain/subject/state.js';
import { requireId } from '../../domain/values/ids.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { optionalInstant } from '../input.js';
import { resultOf } from '../output.js';
import { contextOf, run } from '../session.js';
import { catchUpCommitted, openReadSide } from '../../queries/read-side.js';

const statusSchema = z.enum([...PROPOSAL_STATUSES, 'all'], { error: `must be one of ${PROPOSAL_STATUSES.join(', ')}, all` });

const subjectOptions = (command: Command) =>
  command
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .option('--idempotency-key <key>', 'retry-safe key for the command');

export function registerCandidateCommands(program: Command): void {
  const candidates = program.command('candidates').description('writes the gate held for review: list, accept, reject, expire');
  candidates
    .command('list')
    .description("the subject's candidates, oldest first (never their content)")
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .option('--status <status>', `${PROPOSAL_STATUSES.join('|')}|all`, 'pending')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ status: statusSchema }), flags);
        return listCandidates(await ledger(), contextOf(o), o.status);
      }),
    );
  subjectOptions(candidates.command('accept').description('accept a candidate: the normal write decision on its entry'))
    .requiredOption('--memory <id>', 'the candidate (the memory id it was proposed with)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ memory: opt.text }), flags);
        const context = contextOf(o);
        return resultOf(await acceptCandidate(await ledger(), context, requireId('memory', o.memory)));
      }),
    );
  candidates
    .command('expire')
    .description('the candidate expiry sweep, once: every pending candidate past its expiry becomes ProposalExpired')
    .option('--at <instant>', 'the sweep time (ISO 8601; default: now)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ at: opt.optionalText }), flags);
        const at = optionalInstant('at', o.at);
        const read = await openReadSide(await ledger(), { tokenizer: false });
        try {
          // Every candidate proposed before the sweep.
          await catchUpCommitted(read);
          return await sweepCandidatesOnce(await ledger(), read.projections, at);
        } finally {
          await read.close();
        }
      }),
    );
  subjectOptions(candidates.command('reject').description('reject a candidate (kept for audit)'))
    .requiredOption('--memory <id>', 'the candidate')
    .option('--reason <text>', 'why (stored in clear: name no personal content)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ memory: opt.text, reason: opt.optionalText }), flags);
        const context = contextOf(o);
        return resultOf(await rejectCandidate(await ledger(), context, requireId('memory', o.memory), o.reason));
      }),
    );
}
