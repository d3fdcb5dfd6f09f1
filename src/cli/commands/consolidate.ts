// `memledger consolidate prepare | publish | run | approve | worker`
// (DESIGN section 10). A rejected switch or a failed gate exits 3 with the
// reason on stderr (the result, with the artifact id, still goes to stdout);
// a failed generation exits 1.
import type { Command } from 'commander';
import { z } from 'zod';
import { approveArtifact } from '../../commands/consolidation/approve.js';
import { prepareConsolidation, type PrepareOptions } from '../../commands/consolidation/prepare.js';
import type { CompactionTrigger } from '../../domain/compaction/record.js';
import { publishArtifact, type PublishResult } from '../../commands/consolidation/publish.js';
import type { RejectionCode } from '../../domain/result/rejection-codes.js';
import type { Result } from '../../domain/result/result.js';
import { runConsolidation, type RunHooks } from '../../commands/consolidation/run.js';
import { consolidationServicesFromEnv } from '../../commands/consolidation/services.js';
import { runWorker } from '../../commands/consolidation/worker.js';
import { wholeNumber } from '../input.js';
import { requireId } from '../../domain/values/ids.js';
import { ANSWERS } from '../../answers/answer-table.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { printError } from '../output.js';
import { contextOf, run } from '../session.js';

/** Test hook: pause after the artifact write, before publication, so a test can kill the process there. */
export const PAUSE_AFTER_ARTIFACT = 'MEMLEDGER_CONSOLIDATE_PAUSE_AFTER_ARTIFACT';

/** Prints the domain's refusal as the CLI's error and sets the exit code; returns the result to print on stdout. */
function settle<R>(outcome: Result<R>, judge: (result: R) => { code: RejectionCode; message: string } | undefined): R | undefined {
  if (!outcome.ok) {
    const { code, message, field } = outcome.rejection;
    const exitCode = ANSWERS[code].exit;
    printError({ exitCode, body: { error: code, message, ...(field ? { field } : {}) } });
    process.exitCode = exitCode;
    return undefined;
  }
  const verdict = judge(outcome.result);
  if (verdict) {
    const exitCode = ANSWERS[verdict.code].exit;
    printError({ exitCode, body: { error: verdict.code, message: verdict.message } });
    process.exitCode = exitCode;
  }
  return outcome.result;
}

function publishVerdict(result: PublishResult) {
  return result.status === 'rejected' ? { code: result.reason, message: result.message } : undefined;
}

function artifactVerdict(result: {
  status: string;
  gate?: { reasons?: ReadonlyArray<{ code: string; message: string }> };
  generationError?: { code: string; message: string };
}) {
  if (result.status === 'gate_failed') {
    const reasons = result.gate?.reasons ?? [];
    return {
      code: 'gate_failed' as const,
      message: reasons.map((r) => `${r.code}: ${r.message}`).join('; ') || 'the loss gate failed',
    };
  }
  if (result.status === 'generation_failed')
    return {
      code: 'generation_failed' as const,
      message: result.generationError ? `${result.generationError.code}: ${result.generationError.message}` : 'generation failed',
    };
  return undefined;
}

function pauseHook(): RunHooks | undefined {
  if (!process.env[PAUSE_AFTER_ARTIFACT]) return undefined;
  return {
    afterArtifactWritten: (artifactId) => {
      process.stderr.write(`${JSON.stringify({ paused: 'after_artifact', artifactId })}\n`);
      setInterval(() => undefined, 60_000);
      return new Promise<void>(() => undefined);
    },
  };
}

/** What publish and approve declare (artifact()). */
const artifactSchema = z.object({ tenant: opt.text, subject: opt.optionalText, artifact: opt.text });
const RECORD_OPTIONS = { through: opt.optionalText, fromRaw: opt.flag, reason: opt.optionalText, runId: opt.optionalText };

/**
 * prepare's and run's options: the subject, what to cover, and the compaction
 * record's boundary and run (`--reason` and `--run-id` are validated by
 * prepare, naming the option).
 */
function compactionRequest(flags: unknown): {
  context: ReturnType<typeof contextOf>;
  options: Pick<PrepareOptions, 'through' | 'fromRaw' | 'trigger' | 'runId'>;
} {
  const o = optionsOf(subjectSchema.extend(RECORD_OPTIONS), flags);
  const through = wholeNumber('through', o.through, 1, Number.MAX_SAFE_INTEGER);
  return {
    context: contextOf(o),
    options: {
      ...(through !== undefined ? { through } : {}),
      ...(o.fromRaw ? { fromRaw: true } : {}),
      ...(o.reason !== undefined ? { trigger: o.reason as CompactionTrigger } : {}),
      ...(o.runId !== undefined ? { runId: o.runId } : {}),
    },
  };
}

export function registerConsolidateCommands(program: Command): void {
  const consolidate = program
    .command('consolidate')
    .description('summaries bound to input snapshots, gated for loss, published by a fenced alias switch');
  const subject = (cmd: Command) =>
    cmd.requiredOption('--tenant <tenant>', 'tenant id').requiredOption('--subject <subject>', 'subject id');
  const artifact = (cmd: Command) =>
    cmd
      .requiredOption('--tenant <tenant>', 'tenant id')
      .option('--subject <subject>', 'subject id (checked against the artifact)')
      .requiredOption('--artifact <id>', 'artifact id');
  /** prepare and run: what to cover, and the compaction record's boundary and run. */
  const compaction = (cmd: Command, fromRaw: string) =>
    subject(cmd)
      .option('--through <H>', 'cover entries with sequence <= H (default: the last)')
      .option('--from-raw', fromRaw)
      .option('--reason <reason>', 'the boundary compacted at: handoff, phase or branch (recorded in the manifest; default: the schedule)')
      .option('--run-id <id>', 'the run or task the compaction record belongs to (checked by assess --run-id)');

  compaction(
    consolidate.command('prepare').description('snapshot, generate and gate an artifact (not readable until published)'),
    'build from raw entries even when the current summary could serve as parent',
  ).action((flags) =>
    run(async (ledger) => {
      const { context, options } = compactionRequest(flags);
      const services = await consolidationServicesFromEnv(process.env);
      const outcome = await prepareConsolidation(await ledger(), services, context, options);
      return settle(outcome, artifactVerdict);
    }),
  );

  artifact(
    consolidate.command('publish').description('switch the alias to a gated artifact, fenced by the subject stream revision'),
  ).action((flags) =>
    run(async (ledger) => {
      const o = optionsOf(artifactSchema, flags);
      const context = artifactContext(o);
      const services = await consolidationServicesFromEnv(process.env, { tokenizer: false });
      return settle(await publishArtifact(await ledger(), services, context, requireId('artifact', o.artifact)), publishVerdict);
    }),
  );

  artifact(consolidate.command('approve').description('shadow mode: approve a gated artifact and publish it')).action((flags) =>
    run(async (ledger) => {
      const o = optionsOf(artifactSchema, flags);
      const context = artifactContext(o);
      const services = await consolidationServicesFromEnv(process.env, { tokenizer: false });
      return settle(await approveArtifact(await ledger(), services, context, requireId('artifact', o.artifact)), publishVerdict);
    }),
  );

  compaction(
    consolidate.command('run').description('prepare and publish; a refused switch is followed by forward recovery'),
    'forward recovery: rebuild from the raw valid inputs',
  ).action((flags) =>
    run(async (ledger) => {
      const { context, options } = compactionRequest(flags);
      const services = await consolidationServicesFromEnv(process.env);
      const hooks = pauseHook();
      const outcome = await runConsolidation(await ledger(), services, context, { ...options, ...(hooks ? { hooks } : {}) });
      return settle(outcome, (result) =>
        'publish' in result ? publishVerdict(result.publish) : 'prepare' in result ? artifactVerdict(result.prepare) : undefined,
      );
    }),
  );

  consolidate
    .command('worker')
    .description('consolidate due subjects until stopped (SIGTERM) or idle; several workers may run at once')
    .option('--tenant <tenant>', 'only this tenant (default: all)')
    .option('--threshold <N>', 'new entries since the alias coverage that make a subject due', '50')
    .option('--idle-exit-ms <ms>', 'exit after this long without a due subject')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(z.object({ tenant: opt.optionalText, threshold: opt.text, idleExitMs: opt.optionalText }), flags);
        const tenant = o.tenant === undefined ? undefined : requireId('tenant', o.tenant);
        const threshold = wholeNumber('threshold', o.threshold, 1, 1_000_000)!;
        const idleExitMs = wholeNumber('idle-exit-ms', o.idleExitMs, 0, 86_400_000);
        const services = await consolidationServicesFromEnv(process.env);
        const stop = new AbortController();
        process.once('SIGTERM', () => stop.abort());
        process.once('SIGINT', () => stop.abort());
        const hooks = pauseHook();
        return runWorker(await ledger(), services, {
          ...(tenant !== undefined ? { tenant } : {}),
          threshold,
          ...(idleExitMs !== undefined ? { idleExitMs } : {}),
          signal: stop.signal,
          ...(hooks ? { hooks } : {}),
          report: (line) => process.stderr.write(`${JSON.stringify(line)}\n`),
        });
      }),
    );
}

function artifactContext(o: { tenant?: string; subject?: string }) {
  const tenant = requireId('tenant', o.tenant);
  const subject = o.subject === undefined ? undefined : requireId('subject', o.subject);
  return { tenant, ...(subject !== undefined ? { subject } : {}), actor: 'cli' };
}
