// `memledger policy show|set --tenant T [--file policy.json]`: the tenant's
// versioned write policy (issue 17). set validates the document (the error
// names the field, e.g. `policy.rules.0.then.ttl`) and appends the next
// version; show prints the current one, or the built-in default (version 0).
import type { Command } from 'commander';
import { z } from 'zod';
import { WritePolicies } from '../../commands/policy/write-policies.js';
import { requireId } from '../../domain/values/ids.js';
import { readJson } from '../input.js';
import { opt, optionsOf } from '../options.js';
import { resultOf } from '../output.js';
import { run } from '../session.js';

export function registerWritePolicyCommands(program: Command): void {
  const policy = program.command('policy').description("the tenant's write policy (what may become memory)");
  policy
    .command('show')
    .description('print the current write policy and its version')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text }), flags);
        const tenant = requireId('tenant', o.tenant);
        const opened = await ledger();
        return new WritePolicies(opened.eventStore, opened.clock).show(tenant);
      }),
    );
  policy
    .command('set')
    .description('set the next version of the write policy')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--file <path>', 'the policy document (JSON), or - for stdin')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text, file: opt.text }), flags);
        const tenant = requireId('tenant', o.tenant);
        const document = readJson('file', o.file === '-' ? '-' : `@${o.file}`);
        const opened = await ledger();
        return resultOf(await new WritePolicies(opened.eventStore, opened.clock).set(tenant, document, 'cli'));
      }),
    );
}
