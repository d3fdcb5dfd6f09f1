// memledger's command line. Usage errors (unknown options, missing values)
// exit 2 with a JSON error like any other bad input. Only the module of the
// command asked for is loaded (the others pull in gRPC, fastify, tokenizers…),
// so a one-shot command starts fast; help and unknown commands load them all.
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { EXIT } from '../answers/answer-table.js';
import { printError } from './output.js';

type Register = (program: Command) => void;

const COMMAND_MODULES: Record<string, () => Promise<Register>> = {
  write: async () => (await import('./commands/write.js')).registerWriteCommands,
  read: async () => (await import('./commands/read.js')).registerReadCommands,
  consolidate: async () => (await import('./commands/consolidate.js')).registerConsolidateCommands,
  projections: async () => (await import('./commands/projections.js')).registerProjectionCommands,
  queries: async () => (await import('./commands/queries.js')).registerQueryCommands,
  keys: async () => (await import('./commands/keys.js')).registerKeyCommands,
  reindex: async () => (await import('./commands/reindex.js')).registerReindexCommand,
  serve: async () => (await import('./commands/serve.js')).registerServeCommand,
  demo: async () => (await import('./commands/demo.js')).registerDemoCommand,
  forgetting: async () => (await import('./commands/forgetting.js')).registerForgettingCommands,
  retention: async () => (await import('./commands/retention.js')).registerRetentionCommands,
  server: async () => (await import('./commands/server.js')).registerServerCommands,
  eval: async () => (await import('./commands/eval.js')).registerEvalCommand,
  mcp: async () => (await import('./commands/mcp.js')).registerMcpCommand,
  policy: async () => (await import('./commands/write-policy.js')).registerWritePolicyCommands,
  candidates: async () => (await import('./commands/candidates.js')).registerCandidateCommands,
  promote: async () => (await import('./commands/promote.js')).registerPromoteCommand,
  lifecycle: async () => (await import('./commands/lifecycle.js')).registerLifecycleCommands,
  feedback: async () => (await import('./commands/feedback.js')).registerFeedbackCommands,
};

/** The top-level command names each module registers. */
const MODULE_OF: Record<string, keyof typeof COMMAND_MODULES> = {
  record: 'write',
  policy: 'policy',
  candidates: 'candidates',
  promote: 'promote',
  lifecycle: 'lifecycle',
  feedback: 'feedback',
  recalls: 'feedback',
  import: 'write',
  supersede: 'write',
  retract: 'write',
  conflicts: 'write',
  trust: 'write',
  taint: 'write',
  expire: 'write',
  forget: 'forgetting',
  erasure: 'forgetting',
  retention: 'retention',
  events: 'read',
  consolidate: 'consolidate',
  projections: 'projections',
  recall: 'queries',
  'as-of': 'queries',
  replay: 'queries',
  lineage: 'queries',
  stale: 'queries',
  assess: 'queries',
  verify: 'queries',
  keys: 'keys',
  reindex: 'reindex',
  serve: 'serve',
  demo: 'demo',
  server: 'server',
  eval: 'eval',
  mcp: 'mcp',
};

// The same path from src/cli and from the build's dist/cli.
const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

const program = new Command('memledger')
  .description('an event-sourced ledger for the long-term memory of AI agents')
  .version(version, '-V, --version', 'print the version')
  .exitOverride()
  .configureOutput({ writeErr: () => undefined });

const first = process.argv[2] ?? '';
const asked = MODULE_OF[first];
const modules = asked ? [asked] : first === '--version' || first === '-V' ? [] : Object.keys(COMMAND_MODULES);
for (const name of modules) (await COMMAND_MODULES[name]!())(program);

const quiet = (cmd: Command): void => {
  cmd.exitOverride().configureOutput({ writeErr: () => undefined });
  cmd.commands.forEach(quiet);
};
program.commands.forEach(quiet);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') {
    process.exitCode = EXIT.ok; // commander already printed it
  } else if (error.code === 'commander.help') {
    process.stdout.write(program.helpInformation());
    process.exitCode = EXIT.ok;
  } else {
    const field = /'(--[a-z-]+)/.exec(error.message)?.[1]?.replace(/^--/, '');
    printError({
      exitCode: EXIT.badInput,
      body: { error: 'usage', message: error.message.replace(/^error: /, ''), ...(field ? { field } : {}) },
    });
    process.exitCode = EXIT.badInput;
  }
}
