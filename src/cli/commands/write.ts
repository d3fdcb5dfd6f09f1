// The write commands of DESIGN section 10: record, import, supersede,
// retract, conflicts, trust, taint, expire (forget: see forgetting.ts).
import { createHash } from 'node:crypto';
import type { Command } from 'commander';
import { importEntries, validateImportLines } from '../../commands/import.js';
import { changeTrust, escalateTaintPolicy, expireMemories, resolveConflict, retractMemory } from '../../commands/lifecycle.js';
import { recordMemory, supersedeMemory } from '../../commands/record.js';
import { SOURCE_TYPES, TRUST_LEVELS } from '../../domain/entry/source.js';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { openConflicts } from '../../domain/subject/state.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { requireId } from '../../domain/values/ids.js';
import { oneOf, optionalInstant, readJson, readText, requiredText } from '../input.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { resultOf } from '../output.js';
import { contextOf, run } from '../session.js';
import { withWriterOptions, writeRequestOf, writerContext, writerFlags } from '../writer-options.js';
import { PURPOSE_OPTION, purposeFlags, withPurposes } from '../purpose-option.js';

const subjectOptions = (cmd: Command) =>
  cmd
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .option('--idempotency-key <key>', 'retries with the same key append nothing new');

export function registerWriteCommands(program: Command): void {
  withWriterOptions(subjectOptions(program.command('record').description('record a memory entry (through the write gate)')))
    .requiredOption('--entry <json>', 'the entry: JSON, @file or - for stdin')
    .option(...PURPOSE_OPTION)
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ entry: opt.text, purpose: purposeFlags, ...writerFlags }), flags);
        const context = writerContext(contextOf(o), o);
        const request = writeRequestOf(o);
        const entry = withPurposes(readJson('entry', o.entry), o.purpose);
        return resultOf(await recordMemory(await ledger(), context, entry, request));
      }),
    );

  withWriterOptions(subjectOptions(program.command('supersede').description('replace a memory with a newer entry')))
    .requiredOption('--memory <id>', 'the memory replaced')
    .requiredOption('--entry <json>', 'the new entry: JSON, @file or -')
    .option(...PURPOSE_OPTION)
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ memory: opt.text, entry: opt.text, purpose: purposeFlags, ...writerFlags }), flags);
        const context = writerContext(contextOf(o), o);
        const request = writeRequestOf(o);
        const memory = requireId('memory', o.memory);
        const entry = withPurposes(readJson('entry', o.entry), o.purpose);
        return resultOf(await supersedeMemory(await ledger(), context, memory, entry, request));
      }),
    );

  subjectOptions(program.command('retract').description('withdraw a memory'))
    .requiredOption('--memory <id>', 'the memory withdrawn')
    .requiredOption('--reason <text>', 'why')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ memory: opt.text, reason: opt.text }), flags);
        const context = contextOf(o);
        const memory = requireId('memory', o.memory);
        return resultOf(await retractMemory(await ledger(), context, memory, requiredText('reason', o.reason)));
      }),
    );

  const conflicts = subjectOptions(program.command('conflicts').description('list open conflicts, or resolve one')).action((flags) =>
    run(async (ledger) => {
      const o = optionsOf(subjectSchema, flags);
      const context = contextOf(o);
      const loaded = await (await ledger()).subjects.load(subjectStreamName(context.tenant, context.subject));
      return openConflicts(loaded.state).map((c) => ({ conflictId: c.conflictId, key: c.key, scopes: c.scopes, memoryIds: c.memoryIds }));
    }),
  );
  subjectOptions(conflicts.command('resolve').description('settle a conflict: the winner stays, the others are superseded'))
    .requiredOption('--conflict <id>', 'conflict id')
    .requiredOption('--winner <id>', 'the memory that stays')
    .option('--reason <text>', 'why')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ conflict: opt.text, winner: opt.text, reason: opt.optionalText }), flags);
        const context = contextOf(o);
        return resultOf(
          await resolveConflict(await ledger(), context, requireId('conflict', o.conflict), requireId('winner', o.winner), o.reason),
        );
      }),
    );

  subjectOptions(program.command('trust').description("change a source's trust level"))
    .requiredOption('--source <ref>', 'source ref')
    .requiredOption('--level <level>', TRUST_LEVELS.join(' | '))
    .option('--reason <text>', 'why')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ source: opt.text, level: opt.text, reason: opt.optionalText }), flags);
        const context = contextOf(o);
        const level = oneOf('level', TRUST_LEVELS, o.level);
        return resultOf(await changeTrust(await ledger(), context, requiredText('source', o.source), level, o.reason));
      }),
    );

  subjectOptions(program.command('taint').description('escalate the taint policy: matching sources taint what derives from them'))
    .option('--ref <pattern...>', 'source refs, or prefixes ending with *')
    .option('--source-type <type...>', SOURCE_TYPES.join(' | '))
    .requiredOption('--reason <text>', 'why')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ ref: opt.optionalList, sourceType: opt.optionalList, reason: opt.text }), flags);
        const context = contextOf(o);
        const sourceTypes = (o.sourceType ?? []).map((t) => oneOf('source-type', SOURCE_TYPES, t));
        return resultOf(
          await escalateTaintPolicy(await ledger(), context, {
            refPatterns: o.ref ?? [],
            sourceTypes,
            reason: requiredText('reason', o.reason),
          }),
        );
      }),
    );

  subjectOptions(program.command('expire').description('the TTL sweeper, once: expire entries whose expiresAt has passed'))
    .option('--now <instant>', 'the sweep time (default: now)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ now: opt.optionalText }), flags);
        const context = contextOf(o);
        return resultOf(await expireMemories(await ledger(), context, optionalInstant('now', o.now)));
      }),
    );

  program
    .command('import')
    .description('bulk import: one entry per line (JSON lines), validated first, appended in batches')
    .requiredOption('--tenant <tenant>', 'tenant id')
    .requiredOption('--subject <subject>', 'subject id')
    .requiredOption('--file <path>', 'JSON lines file, or - for stdin')
    .option('--batch-size <n>', 'entries per append', '500')
    .option('--as <writer>', 'who writes, bounding the source type: user | writer | reviewer | admin (default: the operator)')
    .action((flags) =>
      run(async (ledger) => {
        const o = optionsOf(subjectSchema.extend({ file: opt.text, batchSize: opt.text, as: opt.optionalText }), flags);
        const context = writerContext(contextOf(o), o);
        const batchSize = Number(o.batchSize);
        if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
          throw new InvalidInput('batch-size', 'must be a whole number from 1 to 10000');
        const text = readText('file', o.file === '-' ? '-' : `@${o.file}`);
        const lines = text.split('\n').map((l) => l.trim());
        const values = lines.flatMap((line, i) => {
          if (line === '') return [];
          try {
            return [JSON.parse(line) as unknown];
          } catch {
            throw new InvalidInput(`line ${i + 1}`, 'is not valid JSON');
          }
        });
        const entries = validateImportLines(values);
        const importId = createHash('sha256').update(`${context.tenant}/${context.subject}\n`).update(text).digest('hex');
        const result = resultOf(await importEntries(await ledger(), context, entries, { importId, batchSize }));
        if (result.rejected.length > 0) process.exitCode = 3;
        return result;
      }),
    );
}
