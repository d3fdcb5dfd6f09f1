// `memledger mcp --tenant T [--namespace P]…`: the MCP server on stdio
// (src/mcp). Bad flags exit 2 with the CLI's JSON error before anything is
// opened; once serving, stdout is the protocol's.
import type { Command } from 'commander';
import { requireId } from '../../domain/values/ids.js';
import { requireNamespaces } from '../../mcp/namespaces.js';
import { serveMcpOnStdio } from '../../mcp/stdio.js';
import { run } from '../session.js';

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerMcpCommand(program: Command): void {
  program
    .command('mcp')
    .description('an MCP server on stdio for one tenant: remember, recall, forget, list_conflicts, as_of')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option(
      '--namespace <pattern>',
      'only subjects matching (*, a subject id, or a prefix ending in *, e.g. user:*); repeatable; none: the whole tenant',
      collect,
      [],
    )
    .action((o: { tenant: string; namespace: string[] }) =>
      run(async (ledger) => {
        const tenant = requireId('tenant', o.tenant);
        const namespaces = requireNamespaces(o.namespace);
        await serveMcpOnStdio(await ledger(), { tenant, namespaces });
        return undefined;
      }),
    );
}
