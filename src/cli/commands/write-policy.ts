// `memledger policy show|set --tenant T [--file policy.json]`: the tenant's
// versioned write policy (issue 17). set validates the document (the error
// names the field, e.g. `policy.rules.0.then.ttl`) and appends the next
// version; show prints the current one, or the built-in default (version 0).
import type { Command } from 'commander';
import { WritePolicies } from '../../commands/policy/write-policies.js';
import { registerTenantPolicyCommands } from './tenant-policy.js';

export function registerWritePolicyCommands(program: Command): void {
  const policy = program.command('policy').description("the tenant's write policy (what may become memory)");
  registerTenantPolicyCommands(
    policy,
    { show: 'print the current write policy and its version', set: 'set the next version of the write policy' },
    (eventStore, clock) => new WritePolicies(eventStore, clock),
  );
}
