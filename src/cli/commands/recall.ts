// `memledger recall`: what an agent may put in its context now, through the
// read side (src/queries/recall), reading the subject's and each shared
// namespace's own writes first.
import type { Command } from 'commander';
import { z } from 'zod';
import { subjectStreamName } from '../../domain/events/stream-names.js';
import { InvalidInput } from '../../domain/validation/invalid-input.js';
import { answerRecall } from '../../queries/recall/recall.js';
import { optionsFromText, requireRecallRequest, type RecallRequest } from '../../queries/recall/request.js';
import { opt, optionsOf, subjectSchema } from '../options.js';
import { withReadSide } from '../read-command.js';
import { contextOf } from '../session.js';

function scopesOf(pairs: readonly string[]): Record<string, string> {
  const scopes: Record<string, string> = {};
  for (const pair of pairs) {
    const m = /^([^=]+)=(.+)$/.exec(pair);
    if (!m) throw new InvalidInput('scope', `must be key=value, e.g. project=shop-a (got "${pair}")`);
    if (scopes[m[1]!] !== undefined) throw new InvalidInput('scope', `names ${m[1]} twice`);
    scopes[m[1]!] = m[2]!;
  }
  return scopes;
}

const collect = (value: string, previous: string[]) => [...previous, value];

/** What recall declares: --scope is collected into a list (none: []). */
const recallSchema = subjectSchema.extend({
  scope: z.array(opt.text),
  shared: z.array(opt.text),
  budget: opt.optionalText,
  maxSensitivity: opt.optionalText,
  purpose: opt.optionalText,
  now: opt.optionalText,
  query: opt.optionalText,
  topK: opt.optionalText,
  key: opt.optionalText,
  kind: opt.optionalText,
  minScore: opt.optionalText,
  includeDemoted: z.boolean().optional(),
});

export function registerRecallCommand(program: Command, subject: (cmd: Command) => Command): void {
  subject(
    program
      .command('recall')
      .description('what an agent may put in its context now: hard filters, then the current summary or raw entries, with provenance'),
  )
    .option('--budget <tokens>', 'pack whole items into this many tokens (cl100k_base), by priority; open conflicts always')
    .option('--scope <key=value>', "the reader's scope (team, project, thread, agent); repeatable", collect, [])
    .option(
      '--shared <namespace>',
      'a shared namespace (team:<id>, project:<id>) whose memories join, each item naming it; repeatable',
      collect,
      [],
    )
    .option('--max-sensitivity <level>', 'highest sensitivity returned: public, normal, personal (default), confidential, restricted')
    .option('--purpose <label>', 'what the answer is for: entries that list purposes are served only for one of them')
    .option('--now <instant>', 'judge validity and expiry at this time (default: now)')
    .option('--query <text>', 'a question: items in relevance order, each with retrieval {score, rank, reasons}')
    .option('--top-k <n>', 'with --query: at most this many items, 1..200 (default 20), before the budget')
    .option('--key <pattern>', 'with --query: only keys matching, e.g. notification.preference or notification.*')
    .option('--kind <kind>', 'with --query: only this kind (episodic, semantic, profile, procedural, constraint, permission)')
    .option('--min-score <x>', 'with --query: leave out items scoring below x (open conflicts on matched keys still show)')
    .option('--include-demoted', 'also serve memories the lifecycle demoted (counted in excluded.demoted otherwise)')
    .action((flags) =>
      withReadSide(
        (): RecallRequest => {
          const o = optionsOf(recallSchema, flags);
          const context = contextOf(o);
          const scopes = scopesOf(o.scope);
          const given = {
            budget: o.budget,
            maxSensitivity: o.maxSensitivity,
            purpose: o.purpose,
            now: o.now,
            query: o.query,
            topK: o.topK,
            key: o.key,
            kind: o.kind,
            minScore: o.minScore,
            includeDemoted: o.includeDemoted,
            ...(Object.keys(scopes).length > 0 ? { scopes } : {}),
            ...(o.shared.length > 0 ? { shared: o.shared } : {}),
          };
          const options = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
          return requireRecallRequest({ tenant: context.tenant, subject: context.subject }, optionsFromText(options));
        },
        (read, request) => answerRecall(read, request, 'cli'),
        {
          tokenizer: true,
          streams: (_read, request) => [request.subject, ...(request.shared ?? [])].map((s) => subjectStreamName(request.tenant, s)),
        },
      ),
    );
}
