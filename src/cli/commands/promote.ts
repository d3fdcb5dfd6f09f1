// `memledger promote --tenant T --subject user:u-7 --memory M --to team:t-1
// --reason WHY` (issue 19 item 3): proposes a copy of a private memory as a
// candidate in a shared namespace, through the same command function and
// request schema as POST /v1/subjects/{subject}/memories/{memoryId}/promotions.
// A reviewer accepts it with `memledger candidates accept --subject team:t-1`.
// A bad flag names the flag (--memory, --to, --reason); exit 2, nothing written.
import type { Command } from 'commander';
import { promoteMemory } from '../../commands/promotion/promote-memory.js';
import { asFlags } from '../input.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { resultOf } from '../output.js';
import { contextOf, run } from '../session.js';

const FLAG_OF: Readonly<Record<string, string>> = { memoryId: 'memory' };

export function registerPromoteCommand(program: Command): void {
  program
    .command('promote')
    .description("propose a private memory to a team's or a project's namespace: a candidate there until a reviewer accepts it")
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'the private namespace the memory is in, e.g. user:u-7')
    .requiredOption('--memory <id>', 'the memory to promote')
    .requiredOption('--to <namespace>', 'the shared namespace: team:<id> or project:<id>')
    .requiredOption('--reason <text>', 'why (stored in clear: name no personal content)')
    .option('--idempotency-key <key>', 'retry-safe key for the command')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ memory: opt.text, to: opt.text, reason: opt.text }), flags);
        const context = contextOf(o);
        const input = { memoryId: o.memory, to: o.to, reason: o.reason };
        return resultOf(await asFlags(FLAG_OF, async () => promoteMemory(await ledger(), context, input)));
      }),
    );
}
