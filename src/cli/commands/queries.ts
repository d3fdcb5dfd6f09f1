// The read side's commands (DESIGN section 10): recall, as-of, replay,
// lineage, stale, assess, verify. Every one but replay first catches the
// projections up, so a user reads their own writes; replay reads the event
// stream alone. verify exits 3 when a summary loses a fact or states a false
// new one, or a STALE summary is visible through recall (the report still
// goes to stdout). recall is its own module (recall.ts), registered here.
import type { Command } from 'commander';
import { z } from 'zod';
import { consolidationServicesFromEnv } from '../../commands/consolidation/services.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { requireId } from '../../domain/values/ids.js';
import { summarizerFromEnv } from '../../infrastructure/summarizer/from-env.js';
import { asOf } from '../../queries/as-of.js';
import { assess } from '../../queries/assess/assess.js';
import { lineage } from '../../queries/lineage/lineage.js';
import { toProvJson } from '../../queries/lineage/prov-json.js';
import { artifactStreams } from '../../queries/read-side.js';
import { replay } from '../../queries/replay/replay.js';
import { staleSet } from '../../queries/stale-set.js';
import { requireTimeQuery, type TimeQueryInput } from '../../queries/time-query.js';
import { verify } from '../../queries/verify/verify.js';
import { EXIT } from '../../answers/answer-table.js';
import { optionalInstant, wholeNumber } from '../input.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { printError } from '../output.js';
import { withReadSide } from '../read-command.js';
import { contextOf, run } from '../session.js';
import { registerRecallCommand } from './recall.js';

/** The time query of as-of and replay, checked the way the queries check it. */
function timeQuery(o: { tenant?: string; subject?: string; validTime?: string }, systemTime: string | undefined): TimeQueryInput {
  const { tenant, subject } = contextOf(o);
  const query = { tenant, subject, systemTime: systemTime ?? '', ...(o.validTime !== undefined ? { validTime: o.validTime } : {}) };
  requireTimeQuery(query);
  return query;
}

export function registerQueryCommands(program: Command): void {
  const subject = (cmd: Command) =>
    cmd.requiredOption('--tenant <tenant>', 'tenant id').requiredOption('--subject <subject>', 'subject id');

  registerRecallCommand(program, subject);

  subject(program.command('as-of').description('what the system believed at system time T about business time V (from memory_versions)'))
    .requiredOption('--system-time <instant>', 'T: everything committed at or before it')
    .option('--valid-time <instant>', 'V (default: T)')
    .action((flags) =>
      withReadSide(
        () => {
          const o = optionsOf(subjectSchema.extend({ systemTime: opt.text, validTime: opt.optionalText }), flags);
          return timeQuery(o, o.systemTime);
        },
        (read, query) => asOf(read, query),
        { streams: (_read, query) => [subjectStreamName(query.tenant, query.subject)] },
      ),
    );

  subject(program.command('replay').description('the same answer as as-of, computed from the event stream alone (no projections)'))
    .requiredOption('--at <instant>', 'T: everything committed at or before it')
    .option('--valid-time <instant>', 'V (default: T)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ at: opt.text, validTime: opt.optionalText }), flags);
        const query = timeQuery(o, o.at);
        return replay(await ledger(), query);
      }),
    );

  program
    .command('lineage')
    .description('the derivation graph of an artifact (claims -> memory versions, artifact -> parents) with STALE marks')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--artifact <id>', 'artifact id')
    .option('--format <format>', 'json (default) or prov-json (W3C PROV-JSON)', 'json')
    .action((flags) =>
      withReadSide(
        () => {
          const o = optionsOf(z.object({ tenant: opt.text, artifact: opt.text, format: opt.text }), flags);
          requireId('tenant', o.tenant);
          requireId('artifact', o.artifact);
          if (o.format !== 'json' && o.format !== 'prov-json') throw new InvalidInput('format', 'must be json or prov-json');
          return o;
        },
        async (read, o) => {
          const graph = await lineage(read, o.tenant, o.artifact);
          return o.format === 'prov-json' ? toProvJson(graph) : graph;
        },
        { streams: (read, o) => artifactStreams(read.eventStore, o.tenant, o.artifact) },
      ),
    );

  subject(program.command('stale').description("the subject's STALE artifacts and the events that made them so")).action((flags) =>
    withReadSide(
      () => contextOf(optionsOf(subjectSchema, flags)),
      (read, context) => staleSet(read, context.tenant, context.subject),
      { streams: (_read, context) => [subjectStreamName(context.tenant, context.subject)] },
    ),
  );

  program
    .command('assess')
    .description('may an artifact be resumed from: ready, blocked, needs_rehydration, needs_evidence or needs_review')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--artifact <id>', 'artifact id')
    .option('--subject <subject>', 'the subject it is meant for (checked)')
    .option('--run-id <id>', 'the run or task the reader continues (checked against the record)')
    .option('--require-anchor <id...>', 'anchors the reader needs besides those the record requires of itself')
    .option('--record-version <version>', 'the compaction record contract the reader continues under (default: the current one)')
    .action((flags) =>
      withReadSide(
        () => {
          const o = optionsOf(
            z.object({
              tenant: opt.text,
              artifact: opt.text,
              subject: opt.optionalText,
              runId: opt.optionalText,
              requireAnchor: opt.optionalList,
              recordVersion: opt.optionalText,
            }),
            flags,
          );
          requireId('tenant', o.tenant);
          requireId('artifact', o.artifact);
          if (o.subject !== undefined) requireId('subject', o.subject);
          if (o.runId !== undefined) requireId('run-id', o.runId);
          for (const anchor of o.requireAnchor ?? [])
            if (!/^[^\s\p{Cc}]{1,300}$/u.test(anchor)) throw new InvalidInput('require-anchor', 'must be an anchor id such as fact:m-1');
          if (o.recordVersion !== undefined) requireId('record-version', o.recordVersion);
          return o;
        },
        (read, o) => {
          // The current summarizer's contract: an artifact built by another prompt or model needs rehydration.
          const summarizer = summarizerFromEnv(process.env);
          return assess(read, {
            tenant: o.tenant,
            artifactId: o.artifact,
            ...(o.subject !== undefined ? { subject: o.subject } : {}),
            ...(o.runId !== undefined ? { runId: o.runId } : {}),
            ...(o.requireAnchor ? { requiredAnchors: o.requireAnchor } : {}),
            contract: {
              promptVersion: summarizer.promptVersion,
              modelSnapshot: summarizer.modelSnapshot,
              ...(o.recordVersion !== undefined ? { recordVersion: o.recordVersion } : {}),
            },
          });
        },
        { streams: (read, o) => artifactStreams(read.eventStore, o.tenant, o.artifact) },
      ),
    );

  program
    .command('verify')
    .description(
      'rebuild summaries for a sample of subjects from the raw layer and measure them; exit 3 on a lost fact, a false new fact or a STALE summary visible through recall',
    )
    .requiredOption('--tenant <tenant>', 'tenant id')
    .option('--sample <n>', 'subjects to sample (default 20)')
    .option('--seed <text>', 'which subjects the sample picks')
    .option('--now <instant>', 'judge validity and expiry at this time (default: now)')
    .action((flags) =>
      withReadSide(
        () => {
          const o = optionsOf(
            z.object({ tenant: opt.text, sample: opt.optionalText, seed: opt.optionalText, now: opt.optionalText }),
            flags,
          );
          requireId('tenant', o.tenant);
          return { o, sample: wholeNumber('sample', o.sample, 1, 10_000), now: optionalInstant('now', o.now) };
        },
        async (read, { o, sample, now }) => {
          const services = await consolidationServicesFromEnv(process.env);
          const report = await verify(read, services, {
            tenant: o.tenant,
            ...(sample !== undefined ? { sample } : {}),
            ...(o.seed !== undefined ? { seed: o.seed } : {}),
            ...(now !== undefined ? { now } : {}),
          });
          if (!report.passed) {
            printError({ exitCode: EXIT.refused, body: { error: 'verification_failed', message: report.failures.join('; ') } });
            process.exitCode = EXIT.refused;
          }
          return report;
        },
        { tokenizer: true },
      ),
    );
}
