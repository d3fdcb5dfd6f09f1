// The CLI's writer, for the write gate (issue 17 item 8): `--as` says what the
// one at the terminal speaks as, which bounds the source types an entry may
// claim. Unset, the CLI is the operator of the data folder, bounded by
// nothing. `--mark` carries the write marks (transient, emotional,
// third_party) that the policy turns into a TTL or a review.
import type { Command } from 'commander';
import type { CommandContext } from '../commands/ledger.js';
import type { WriteRequestOptions } from '../commands/policy/gate-write.js';
import { WRITE_MARKS, type WriteMark, type WriterCredential } from '../domain/policy/index.js';
import { oneOf } from './input.js';
import { opt } from './options.js';

export const CLI_WRITERS = ['user', 'writer', 'reviewer', 'admin'] as const;
type CliWriter = (typeof CLI_WRITERS)[number];

const CREDENTIALS: Readonly<Record<CliWriter, WriterCredential>> = {
  user: { role: 'writer', userChannel: true, ceiling: 'user_assertion' },
  writer: { role: 'writer', userChannel: false, ceiling: 'verified_tool_fact' },
  reviewer: { role: 'reviewer', userChannel: false, ceiling: 'human_review' },
  admin: { role: 'admin', userChannel: false, ceiling: 'human_review' },
};

/** The flags withWriterOptions declares, for a command's options schema (src/cli/options.ts). */
export const writerFlags = { as: opt.optionalText, mark: opt.optionalList };

export function withWriterOptions(cmd: Command): Command {
  return cmd
    .option('--as <writer>', `who writes, bounding the source type: ${CLI_WRITERS.join(' | ')} (default: the operator, unbounded)`)
    .option('--mark <mark...>', `write marks: ${WRITE_MARKS.join(' | ')}`);
}

export function writerContext(context: CommandContext, options: { readonly as?: string }): CommandContext {
  if (options.as === undefined) return context;
  return { ...context, credential: CREDENTIALS[oneOf('as', CLI_WRITERS, options.as)] };
}

export function writeRequestOf(options: { readonly mark?: readonly string[] }): WriteRequestOptions {
  const marks: WriteMark[] = (options.mark ?? []).map((m) => oneOf('mark', WRITE_MARKS, m));
  return marks.length > 0 ? { marks } : {};
}
