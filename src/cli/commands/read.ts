// Read commands that need no projections.
import type { Command } from 'commander';
import { readSubjectEvents } from '../../queries/subject-events.js';
import { optionsOf, subjectSchema } from '../options.js';
import { contextOf, run } from '../session.js';

export function registerReadCommands(program: Command): void {
  program
    .command('events')
    .description('the decoded subject stream (personal fields opened, or marked forgotten)')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema, flags);
        const context = contextOf(o);
        const l = await ledger();
        return readSubjectEvents(l.eventStore, l.keyStore, context);
      }),
    );
}
