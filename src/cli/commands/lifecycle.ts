// `memledger lifecycle …` (issue 18 item 3): the memory lifecycle active ->
// demoted -> archived.
//   sweep [--tenant T] [--subject S] [--at ISO]   demote and archive by the
//          tenant's lifecycle policy, at the clock or at a given instant
//   restore --tenant T --subject S --memory M [--note TEXT]   bring a demoted memory back
//   policy show|set --tenant T [--file F]          the versioned lifecycle policy
import type { Command } from 'commander';
import { z } from 'zod';
import { restoreMemory } from '../../commands/lifecycle.js';
import { LifecyclePolicies } from '../../commands/memory-lifecycle/lifecycle-policies.js';
import { sweepLifecycle } from '../../commands/memory-lifecycle/sweep.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { subjectsInLog } from '../../reads/streams/subjects-in-log.js';
import { optionalInstant } from '../input.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { resultOf } from '../output.js';
import { contextOf, run } from '../session.js';
import { registerTenantPolicyCommands } from './tenant-policy.js';

export function registerLifecycleCommands(program: Command): void {
  const lifecycle = program
    .command('lifecycle')
    .description('decay, demotion and capacity archive of memories (active -> demoted -> archived)');
  lifecycle
    .command('sweep')
    .description("demote and archive by the tenant's lifecycle policy (every tenant when none is given)")
    .option('--tenant <tenant>', 'tenant id (default: every tenant)')
    .option('--subject <subject>', 'only this subject (needs --tenant)')
    .option('--at <instant>', 'the sweep time, ISO 8601 (default: now)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.optionalText, subject: opt.optionalText, at: opt.optionalText }), flags);
        const tenant = o.tenant === undefined ? undefined : requireId('tenant', o.tenant);
        const subject = o.subject === undefined ? undefined : requireId('subject', o.subject);
        if (subject !== undefined && tenant === undefined) throw new InvalidInput('tenant', 'is required with --subject');
        const at = optionalInstant('at', o.at);
        const opened = await ledger();
        // Subjects are found in the log: first let it show every earlier commit.
        if (subject === undefined) await opened.eventStore.awaitCommitted();
        const subjects = subject !== undefined ? [{ tenant: tenant!, subject }] : await subjectsInLog(opened.eventStore, tenant);
        const policies = new LifecyclePolicies(opened.eventStore, opened.clock);
        return { subjects: await sweepLifecycle(opened, policies, subjects, at) };
      }),
    );
  lifecycle
    .command('restore')
    .description('bring a demoted memory back (MemoryRestored)')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .requiredOption('--memory <id>', 'the demoted memory')
    .option('--note <text>', 'why')
    .option('--idempotency-key <key>', 'retries with the same key append nothing new')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ memory: opt.text, note: opt.optionalText }), flags);
        const context = contextOf(o);
        const memory = requireId('memory', o.memory);
        return resultOf(await restoreMemory(await ledger(), context, memory, o.note));
      }),
    );
  const policy = lifecycle.command('policy').description("the tenant's versioned lifecycle policy (half-lives, demotion, capacity)");
  registerTenantPolicyCommands(
    policy,
    {
      show: 'print the lifecycle policy in force and its version (0: the built-in default)',
      set: 'set the next version of the lifecycle policy',
    },
    (eventStore, clock) => new LifecyclePolicies(eventStore, clock),
  );
}
