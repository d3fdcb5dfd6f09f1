// The tenant's retention rules on the command line (DESIGN section 10):
//   retention set | list | remove   default TTLs by kind and sensitivity, and
//              how long expired entries stay archived
//   retention sweep   archive (expire) what is due, erase what stayed
//              archived long enough (exit 3 when an erasure's verification failed)
import type { Command } from 'commander';
import { z } from 'zod';
import { sweepTenant } from '../../commands/forgetting/retention-sweep.js';
import type { Ledger } from '../../commands/ledger.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { MEMORY_KINDS, SENSITIVITIES } from '../../domain/entry/vocabulary.js';
import { ANY, describeRule, parseRetentionRule } from '../../domain/retention/policy.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { PostgresRetentionPolicies } from '../../infrastructure/retention/postgres-retention-policies.js';
import type { OpenLedger } from '../../runtime/open-ledger.js';
import { oneOf, optionalInstant } from '../input.js';
import { opt, optionsOf } from '../options.js';
import { run } from '../session.js';
import { failedVerification, withChecks } from './erasure-checks.js';

export function registerRetentionCommands(program: Command): void {
  const retention = program
    .command('retention')
    .description("the tenant's retention rules: default TTLs by kind and sensitivity, and how long expired entries stay archived");
  const withPolicies = async <T>(ledger: () => Promise<OpenLedger>, work: (store: PostgresRetentionPolicies) => Promise<T>) => {
    const store = new PostgresRetentionPolicies((await ledger()).databaseUrl);
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  };
  const tenantOf = (o: { tenant?: string }) => requireId('tenant', o.tenant);

  retention
    .command('set')
    .description('add or replace the rule for a kind and sensitivity (* for any)')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--kind <kind>', `${MEMORY_KINDS.join(' | ')} | *`, ANY)
    .option('--sensitivity <level>', `${SENSITIVITIES.join(' | ')} | *`, ANY)
    .option('--ttl <duration>', 'default TTL from when an entry is recorded, ISO 8601 (e.g. P30D)')
    .option(
      '--archive-for <duration>',
      'how long an expired entry stays archived before it is erased (PT0S: erased as it expires; absent: kept archived)',
    )
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(
          z.object({ tenant: opt.text, kind: opt.text, sensitivity: opt.text, ttl: opt.optionalText, archiveFor: opt.optionalText }),
          flags,
        );
        const tenant = tenantOf(o);
        const parsed = parseRetentionRule({
          kind: o.kind,
          sensitivity: o.sensitivity,
          ...(o.ttl !== undefined ? { ttl: o.ttl } : {}),
          ...(o.archiveFor !== undefined ? { archiveFor: o.archiveFor } : {}),
        });
        if (!parsed.ok)
          throw new InvalidInput(parsed.error.field.replace(/^rule\./, '').replace('archiveFor', 'archive-for'), parsed.error.reason);
        return withPolicies(ledger, async (store) => {
          await store.put(tenant, parsed.value, 'cli');
          return { tenant, rules: (await store.rules(tenant)).map(describeRule) };
        });
      }),
    );

  retention
    .command('list')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text }), flags);
        const tenant = tenantOf(o);
        return withPolicies(ledger, async (store) => ({ tenant, rules: (await store.rules(tenant)).map(describeRule) }));
      }),
    );

  retention
    .command('remove')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--kind <kind>', `${MEMORY_KINDS.join(' | ')} | *`, ANY)
    .option('--sensitivity <level>', `${SENSITIVITIES.join(' | ')} | *`, ANY)
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text, kind: opt.text, sensitivity: opt.text }), flags);
        const tenant = tenantOf(o);
        const kind = oneOf('kind', [...MEMORY_KINDS, ANY], o.kind);
        const sensitivity = oneOf('sensitivity', [...SENSITIVITIES, ANY], o.sensitivity);
        return withPolicies(ledger, async (store) => ({ tenant, removed: await store.remove(tenant, kind, sensitivity) }));
      }),
    );

  retention
    .command('sweep')
    .description("archive (expire) what is due by the tenant's rules, and erase what stayed archived long enough")
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--subject <subject>', 'only this subject (default: every subject of the tenant)')
    .option('--now <instant>', 'the sweep time (default: now)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text, subject: opt.optionalText, now: opt.optionalText }), flags);
        const tenant = tenantOf(o);
        const subjects = o.subject !== undefined ? [requireId('subject', o.subject)] : undefined;
        const now = optionalInstant('now', o.now);
        const opened: Ledger & OpenLedger = await ledger();
        const store = new PostgresRetentionPolicies(opened.databaseUrl);
        try {
          // Every subject of the tenant is found in the log: first let it show every earlier commit.
          if (!subjects) await opened.eventStore.awaitCommitted();
          const swept = await withChecks(opened, (_read, { checks, beforeVerify }) =>
            sweepTenant(opened, store, tenant, now, {
              checks,
              ...(subjects ? { subjects } : {}),
              beforeVerify: beforeVerify(subjects ? subjects.map((s) => subjectStreamName(tenant, s)) : []),
            }),
          );
          for (const s of swept) if (s.erased) failedVerification(s.erased);
          return { tenant, subjects: swept };
        } finally {
          await store.close();
        }
      }),
    );
}
