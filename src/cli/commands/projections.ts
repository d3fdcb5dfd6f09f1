// `memledger projections status | run [--follow] | rebuild`: the read
// models' lifecycle (src/projections). Data goes to stdout as JSON; the
// rebuild's progress goes to stderr, as a bar on a terminal and as plain
// lines otherwise.
import type { Command } from 'commander';
import cliProgress from 'cli-progress';
import { z } from 'zod';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { formatPosition, parsePosition, type Position } from '../../infrastructure/event-store/port.js';
import {
  catchUpProjection,
  followProjection,
  openProjectionDatabase,
  PROJECTIONS,
  projectionStatus,
  rebuildProjection,
  type ProjectionDatabase,
  type ProjectionDefinition,
} from '../../projections/index.js';
import type { BatchProgress } from '../../projections/runtime/apply-loop.js';
import { estimateTotalEvents } from '../../projections/runtime/progress.js';
import { dropLeftovers } from '../../projections/runtime/schemas.js';
import type { OpenLedger } from '../../runtime/open-ledger.js';
import { opt, optionsOf } from '../options.js';
import { run } from '../session.js';

function batchSizeOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > 100_000) throw new InvalidInput('batch-size', 'must be a whole number from 1 to 100000');
  return n;
}

function selected(name: string | undefined): readonly ProjectionDefinition[] {
  if (name === undefined) return PROJECTIONS;
  const found = PROJECTIONS.filter((p) => p.name === name);
  if (found.length === 0) throw new InvalidInput('projection', `must be one of ${PROJECTIONS.map((p) => p.name).join(', ')}`);
  return found;
}

type Opened = { ledger: OpenLedger; db: ProjectionDatabase['db'] };

/**
 * Runs a projections command: `work` validates its options, then opens the
 * ledger and the projections' database (so bad input opens nothing).
 * Projection errors are answered by their code, as every error (src/answers).
 */
function withProjections(work: (open: () => Promise<Opened>) => Promise<unknown>): Promise<void> {
  return run(async (ledger) => {
    let database: ProjectionDatabase | undefined;
    const open = async (): Promise<Opened> => {
      const l = await ledger();
      database ??= await openProjectionDatabase(l.databaseUrl);
      return { ledger: l, db: database.db };
    };
    try {
      return await work(open);
    } finally {
      await database?.close();
    }
  });
}

export function registerProjectionCommands(program: Command): void {
  const projections = program.command('projections').description('the read models: where they stand, catching up, rebuilding');

  projections
    .command('status')
    .description('per projection: version, schemas, checkpoint, head of the log, lag in events')
    .option('--projection <name>', 'only this projection')
    .action((flags) =>
      withProjections(async (open) => {
        const o = optionsOf(z.object({ projection: opt.optionalText }), flags);
        const definitions = selected(o.projection);
        const { ledger, db } = await open();
        const result = [];
        for (const definition of definitions) result.push(await projectionStatus(db, ledger.eventStore, definition));
        return result;
      }),
    );

  projections
    .command('run')
    .description('catch the projections up to the head of the log (once, or --follow to keep them caught up)')
    .option('--follow', 'keep running: apply new events as they are appended (stop with Ctrl-C)')
    .option('--batch-size <n>', 'events per transaction')
    .option('--projection <name>', 'only this projection')
    .action((flags) =>
      withProjections(async (open) => {
        const o = optionsOf(z.object({ follow: opt.flag, batchSize: opt.optionalText, projection: opt.optionalText }), flags);
        const batchSize = batchSizeOf(o.batchSize);
        const definitions = selected(o.projection);
        const { ledger, db } = await open();
        if (!o.follow) {
          const result = [];
          for (const definition of definitions) {
            const dropped = await dropLeftovers(db, definition.name);
            result.push({
              ...(await catchUpProjection(db, ledger.eventStore, definition, batchSize ? { batchSize } : {})),
              droppedSchemas: dropped,
            });
          }
          return result;
        }
        const controller = new AbortController();
        const stop = () => controller.abort();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        const line = (p: BatchProgress): void => {
          process.stdout.write(
            `${JSON.stringify({ projection: p.projection, schema: p.schema, applied: p.applied, eventsSeen: p.eventsSeen, checkpoint: formatPosition(p.checkpoint), ...(p.faults.length > 0 ? { faults: p.faults } : {}) })}\n`,
          );
        };
        await Promise.all(
          definitions.map((definition) =>
            followProjection(db, ledger.eventStore, definition, {
              signal: controller.signal,
              onBatch: line,
              ...(batchSize ? { batchSize } : {}),
            }),
          ),
        );
        return undefined;
      }),
    );

  projections
    .command('rebuild')
    .description('rebuild from position 0 into a new schema while the current one serves, then swap them')
    .option('--batch-size <n>', 'events per transaction', '5000')
    .option('--projection <name>', 'only this projection')
    .action((flags) =>
      withProjections(async (open) => {
        const o = optionsOf(z.object({ batchSize: opt.text, projection: opt.optionalText }), flags);
        const batchSize = batchSizeOf(o.batchSize);
        const definitions = selected(o.projection);
        const { ledger, db } = await open();
        const result = [];
        for (const definition of definitions) {
          const progress = progressReporter(definition.name);
          try {
            result.push(
              await rebuildProjection(db, ledger.eventStore, definition, {
                ...(batchSize ? { batchSize } : {}),
                onStart: progress.start,
                onBatch: progress.batch,
              }),
            );
          } finally {
            progress.stop();
          }
        }
        return result;
      }),
    );
}

// Properties, not methods: start and batch are handed to the rebuild on their own.
interface ProgressReporter {
  readonly start: (start: { schema: string; head: string | null }) => void;
  readonly batch: (progress: BatchProgress) => void;
  readonly stop: () => void;
}

/** A bar (cli-progress) when stderr is a terminal; a plain line every two seconds otherwise. */
function progressReporter(projection: string): ProgressReporter {
  let head: Position | undefined;
  let started = 0;
  let lastLine = 0;
  let applied = 0;
  const bar = process.stderr.isTTY
    ? new cliProgress.SingleBar(
        {
          format: `${projection} |{bar}| {value}/{total} events | {rate} events/s | ETA {eta_formatted}`,
          stream: process.stderr,
          hideCursor: true,
          etaBuffer: 50,
        },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  const rate = (applied: number) => Math.round(applied / Math.max(0.001, (performance.now() - started) / 1000));
  return {
    start(s) {
      head = s.head ? parsePosition(s.head) : undefined;
      started = performance.now();
      if (bar) bar.start(1, 0, { rate: 0 });
      else process.stderr.write(`rebuilding ${projection} into ${s.schema} (head ${s.head ?? 'empty log'})\n`);
    },
    batch(p) {
      applied = p.applied;
      const total = estimateTotalEvents(p.applied, p.checkpoint, head);
      if (bar) {
        bar.setTotal(total);
        bar.update(p.applied, { rate: rate(p.applied) });
        return;
      }
      const now = performance.now();
      if (now - lastLine < 2000) return;
      lastLine = now;
      const eventsPerSecond = rate(p.applied);
      const eta = eventsPerSecond > 0 ? Math.max(0, Math.round((total - p.applied) / eventsPerSecond)) : 0;
      process.stderr.write(`${projection}: ${p.applied} of ~${total} events, ${eventsPerSecond} events/s, ETA ${eta} s\n`);
    },
    stop() {
      if (bar) bar.stop();
      else if (started > 0)
        process.stderr.write(
          `${projection}: ${applied} events in ${((performance.now() - started) / 1000).toFixed(1)} s, ${rate(applied)} events/s\n`,
        );
    },
  };
}
