// `show` and `set` of a tenant's versioned policy document (the write policy,
// the lifecycle policy): the same two commands over each policy's own store.
// set validates the document (the error names the field) and appends the next
// version; show prints the current one, or the built-in default (version 0).
import type { Command } from 'commander';
import { z } from 'zod';
import type { TenantPolicies } from '../../commands/policy/tenant-policies.js';
import { requireId } from '../../domain/values/ids.js';
import type { EventStore } from '../../infrastructure/event-store/port.js';
import { readJson } from '../input.js';
import { opt, optionsOf } from '../options.js';
import { resultOf } from '../output.js';
import { run } from '../session.js';

export function registerTenantPolicyCommands(
  parent: Command,
  what: { readonly show: string; readonly set: string },
  open: (eventStore: EventStore, clock: () => Date) => TenantPolicies<unknown>,
): void {
  parent
    .command('show')
    .description(what.show)
    .requiredOption('--tenant <tenant>', 'tenant id')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text }), flags);
        const tenant = requireId('tenant', o.tenant);
        const opened = await ledger();
        return open(opened.eventStore, opened.clock).show(tenant);
      }),
    );
  parent
    .command('set')
    .description(what.set)
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--file <path>', 'the policy document (JSON), or - for stdin')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text, file: opt.text }), flags);
        const tenant = requireId('tenant', o.tenant);
        const document = readJson('file', o.file === '-' ? '-' : `@${o.file}`);
        const opened = await ledger();
        return resultOf(await open(opened.eventStore, opened.clock).set(tenant, document, 'cli'));
      }),
    );
}
