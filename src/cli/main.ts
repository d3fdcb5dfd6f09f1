// memledger's command line. Usage errors (unknown options, missing values)
// exit 2 with a JSON error like any other bad input.
import { Command, CommanderError } from 'commander';
import { registerConsolidateCommands } from './commands/consolidate.js';
import { registerProjectionCommands } from './commands/projections.js';
import { registerQueryCommands } from './commands/queries.js';
import { registerReadCommands } from './commands/read.js';
import { registerWriteCommands } from './commands/write.js';
import { registerKeyCommands } from './commands/keys.js';
import { registerServeCommand } from './commands/serve.js';
import { EXIT, printError } from './output.js';

const program = new Command('memledger')
  .description('an event-sourced ledger for the long-term memory of AI agents')
  .exitOverride()
  .configureOutput({ writeErr: () => undefined });

registerWriteCommands(program);
registerReadCommands(program);
registerConsolidateCommands(program);
registerProjectionCommands(program);
registerQueryCommands(program);
registerKeyCommands(program);
registerServeCommand(program);
for (const cmd of program.commands) cmd.exitOverride().configureOutput({ writeErr: () => undefined });
for (const cmd of program.commands.flatMap((c) => c.commands)) cmd.exitOverride().configureOutput({ writeErr: () => undefined });

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (error instanceof CommanderError) {
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') {
      process.stdout.write(program.helpInformation());
      process.exitCode = EXIT.ok;
    } else {
      const field = /'(--[a-z-]+)/.exec(error.message)?.[1]?.replace(/^--/, '');
      printError({ exitCode: EXIT.badInput, body: { error: 'usage', message: error.message.replace(/^error: /, ''), ...(field ? { field } : {}) } });
      process.exitCode = EXIT.badInput;
    }
  } else {
    throw error;
  }
}
