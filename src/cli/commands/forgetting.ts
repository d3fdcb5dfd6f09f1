// Forgetting on the command line (DESIGN sections 8 and 10):
//   forget     erase a memory, every entry recorded from a source ref, or the
//              whole subject; prints the deletion receipt (exit 3 when its
//              verification found the content on some read path); a source
//              ref without --subject: in every subject of the tenant
//   erasure list     a subject's receipts (for auditors)
//   erasure verify   run an issued receipt's checks again (plaintexts to
//              search for may come on stdin, one per line; never as options,
//              which other users of the machine can see)
//   retention set | list | remove | sweep   the tenant's retention rules,
//              and the sweeper that archives (expires) and erases by them
import type { Command } from 'commander';
import { z } from 'zod';
import { forgetMemory, forgetSourceRef, forgetSubject, type ErasureOptions } from '../../commands/forget.js';
import { sweepTenant } from '../../commands/forgetting/retention-sweep.js';
import { forgetSourceRefEverywhere } from '../../commands/forgetting/source-ref-everywhere.js';
import type { Ledger } from '../../commands/ledger.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { ANY, describeRule, parseRetentionRule } from '../../domain/retention/policy.js';
import { MEMORY_KINDS, SENSITIVITIES } from '../../domain/entry/vocabulary.js';
import { requireId } from '../../domain/values/ids.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { PostgresRetentionPolicies } from '../../infrastructure/retention/postgres-retention-policies.js';
import { readSideErasureChecks } from '../../queries/erasure/index.js';
import { subjectReceipts } from '../../queries/erasure/receipts.js';
import { reverifyErasure } from '../../queries/erasure/verify-erasure.js';
import { catchUpWith, openReadSide, type OpenReadSide } from '../../queries/read-side.js';
import type { OpenLedger } from '../../runtime/open-ledger.js';
import { oneOf, optionalInstant, readText } from '../input.js';
import { EXIT } from '../../answers/answer-table.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { resultOf } from '../output.js';
import { contextOf, run } from '../session.js';

/**
 * The read side, for the checks: recall packs with the tokenizer, so it is
 * loaded. beforeVerify(streams) catches the projections up through the last
 * event of those streams; with none named, through every earlier commit.
 */
async function withChecks<T>(
  ledger: OpenLedger,
  work: (
    read: OpenReadSide,
    options: {
      checks: ReturnType<typeof readSideErasureChecks>;
      beforeVerify: (streams: string[]) => (stream?: string) => Promise<void>;
    },
  ) => Promise<T>,
): Promise<T> {
  const read = await openReadSide(ledger, { tokenizer: true });
  // `stream`: the subject an erasure verifies now (a promoted copy's is not among `streams`).
  const beforeVerify = (streams: string[]) => async (stream?: string) => {
    const through = stream === undefined || streams.length === 0 ? streams : [...new Set([...streams, stream])];
    if (through.length === 0) await read.eventStore.awaitCommitted();
    await catchUpWith(read, through);
  };
  try {
    return await work(read, { checks: readSideErasureChecks(read), beforeVerify });
  } finally {
    await read.close();
  }
}

/** Test hook: `MEMLEDGER_FORGET_PAUSE_AFTER=keys_destroyed|tombstoned` pauses there (and says so on stderr), so a test can kill the process. */
export const FORGET_PAUSE_AFTER = 'MEMLEDGER_FORGET_PAUSE_AFTER';

function pauseAfter(): Pick<ErasureOptions, 'afterStep'> {
  const at = process.env[FORGET_PAUSE_AFTER];
  if (!at) return {};
  return {
    afterStep: async (step) => {
      if (step !== at) return;
      process.stderr.write(`${JSON.stringify({ paused: step })}\n`);
      setInterval(() => undefined, 60_000);
      await new Promise<void>(() => undefined);
    },
  };
}

/** `forget --tenant T --source-ref R`: the ref erased in every subject of the tenant (exit 3 when a verification failed or a subject refused). */
async function forgetEverywhere(
  opened: OpenLedger,
  o: { tenant: string; sourceRef: string; reason?: string; idempotencyKey?: string },
): Promise<unknown> {
  const tenant = requireId('tenant', o.tenant);
  const result = await withChecks(opened, (_read, { checks, beforeVerify }) =>
    forgetSourceRefEverywhere(
      opened,
      { tenant, actor: 'cli', ...(o.idempotencyKey ? { idempotencyKey: o.idempotencyKey } : {}) },
      o.sourceRef,
      o.reason,
      (subject) => ({
        checks,
        beforeVerify: beforeVerify([subjectStreamName(tenant, subject)]),
      }),
    ),
  );
  if (result.refused.length > 0) process.exitCode = EXIT.refused;
  for (const receipt of result.receipts) failedVerification(receipt);
  return result;
}

function failedVerification(receipt: { verification?: { status: string } }): void {
  if (receipt.verification?.status === 'failed') process.exitCode = EXIT.refused;
}

export function registerForgettingCommands(program: Command): void {
  program
    .command('forget')
    .description(
      'erase a memory, the entries recorded from a source ref, or (with neither) the whole subject; prints the deletion receipt. --source-ref without --subject: in every subject of the tenant, a receipt each',
    )
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--subject <subject>', 'subject id (required unless --source-ref erases the ref tenant-wide)')
    .option('--idempotency-key <key>', 'retries with the same key append nothing new')
    .option('--memory <id>', 'the memory to erase')
    .option('--source-ref <ref>', 'erase every entry recorded from this source ref (in the subject, or in every subject of the tenant)')
    .option('--reason <text>', 'why (stored in clear: name no personal content)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(
          subjectSchema.extend({
            subject: opt.optionalText,
            memory: opt.optionalText,
            sourceRef: opt.optionalText,
            reason: opt.optionalText,
          }),
          flags,
        );
        if (o.memory !== undefined && o.sourceRef !== undefined) throw new InvalidInput('source-ref', 'cannot be combined with --memory');
        if (o.subject === undefined) {
          if (o.sourceRef === undefined)
            throw new InvalidInput('subject', 'is required, unless --source-ref alone erases the ref in every subject of the tenant');
          return forgetEverywhere(await ledger(), { ...o, sourceRef: o.sourceRef });
        }
        const context = contextOf(o);
        const memory = o.memory !== undefined ? requireId('memory', o.memory) : undefined;
        const opened = await ledger();
        const receipt = await withChecks(opened, async (_read, { checks, beforeVerify }) => {
          const options = { checks, beforeVerify: beforeVerify([subjectStreamName(context.tenant, context.subject)]), ...pauseAfter() };
          if (memory !== undefined) return resultOf(await forgetMemory(opened, context, memory, o.reason, options));
          if (o.sourceRef !== undefined) return resultOf(await forgetSourceRef(opened, context, o.sourceRef, o.reason, options));
          return resultOf(await forgetSubject(opened, context, o.reason, options));
        });
        failedVerification(receipt);
        return receipt;
      }),
    );

  const erasure = program.command('erasure').description('deletion receipts: list them, run their checks again');
  erasure
    .command('list')
    .description("a subject's deletion receipts: ids, counts, who asked, why, verification (never the content)")
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema, flags);
        const { tenant, subject } = contextOf(o);
        return subjectReceipts({ eventStore: (await ledger()).eventStore }, tenant, subject);
      }),
    );

  erasure
    .command('verify')
    .description("run a deletion receipt's checks again; --plaintext-stdin: also search for the lines given on stdin")
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .requiredOption('--receipt <id>', 'the receipt id')
    .option('--plaintext-stdin', 'read texts to search for from stdin, one per line')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ receipt: opt.text, plaintextStdin: opt.flag }), flags);
        const { tenant, subject } = contextOf(o);
        const receiptId = requireId('receipt', o.receipt);
        const plaintexts = o.plaintextStdin
          ? readText('plaintext-stdin', '-')
              .split('\n')
              .map((l) => l.trim())
              .filter((l) => l !== '')
          : [];
        const result = await withChecks(await ledger(), async (read, { beforeVerify }) => {
          await beforeVerify([subjectStreamName(tenant, subject)])();
          return reverifyErasure(read, { tenant, subject, receiptId, plaintexts });
        });
        failedVerification(result);
        return result;
      }),
    );

  registerRetentionCommands(program);
}

function registerRetentionCommands(program: Command): void {
  const retention = program
    .command('retention')
    .description("the tenant's retention rules: default TTLs by kind and sensitivity, and how long expired entries stay archived");
  const policies = async (ledger: () => Promise<OpenLedger>) => new PostgresRetentionPolicies((await ledger()).databaseUrl);
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
        const store = await policies(ledger);
        try {
          await store.put(tenant, parsed.value, 'cli');
          return { tenant, rules: (await store.rules(tenant)).map(describeRule) };
        } finally {
          await store.close();
        }
      }),
    );

  retention
    .command('list')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.text }), flags);
        const tenant = tenantOf(o);
        const store = await policies(ledger);
        try {
          return { tenant, rules: (await store.rules(tenant)).map(describeRule) };
        } finally {
          await store.close();
        }
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
        const store = await policies(ledger);
        try {
          return { tenant, removed: await store.remove(tenant, kind, sensitivity) };
        } finally {
          await store.close();
        }
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
